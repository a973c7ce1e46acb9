import fs from 'node:fs/promises';
import { Command } from 'commander';
import { action } from '../context';
import { apiPath } from '../http/api-client';
import type { ApplicationRepositories } from '../http/responses';

const repositories = (applicationId: string) => apiPath`/v1/management/applications/${applicationId}/repositories`;

/** What `bds repos` prints for people: the keys, each channel's packages, and the setup lines a customer pastes. */
function printRepositories(context: Parameters<Parameters<typeof action>[0]>[0], data: ApplicationRepositories, baseUrl: string): void {
  context.output.result(data, () => {
    context.output.table(['key', 'algorithm', 'origin', 'created', 'retires'], data.keys.map((key) => [
      key.fingerprint, key.algorithm, key.origin, key.createdAt, key.retiresAt ?? '(current)',
    ]));
    for (const { channel, packages } of data.channels) {
      context.output.line(`\nchannel ${channel}: ${packages.length} package${packages.length === 1 ? '' : 's'}`);
      if (packages.length > 0) {
        context.output.table(['format', 'version', 'package', 'package version', 'arch', 'file', 'tier', 'rollout'], packages.map((pkg) => [
          pkg.format, pkg.version, pkg.packageName, pkg.packageVersion, pkg.packageArch, pkg.fileName, pkg.requiredTier ?? '-', `${pkg.rolloutPercentage}%`,
        ]));
      }
    }
    const apt = `${baseUrl}/t/<access token>${data.paths.apt}`;
    const rpm = `${baseUrl}/t/<access token>${data.paths.rpm}`;
    context.output.line('\napt (Debian, Ubuntu):');
    context.output.line(`  curl -fsSL ${apt}/key.asc | sudo gpg --dearmor -o /etc/apt/keyrings/${data.applicationId}.gpg`);
    context.output.line(`  echo "deb [signed-by=/etc/apt/keyrings/${data.applicationId}.gpg] ${apt} stable main" | sudo tee /etc/apt/sources.list.d/${data.applicationId}.list`);
    context.output.line('dnf (Fedora, RHEL):');
    context.output.line(`  sudo curl -fsSL -o /etc/yum.repos.d/${data.applicationId}.repo ${rpm}/stable/${data.applicationId}.repo`);
  });
}

export function reposCommand(): Command {
  const command = new Command('repos').description("An application's signed apt and rpm repositories: what each channel serves, the signing keys, setup lines")
    .argument('<applicationId>')
    .action(action(async (context, applicationId: string) => {
      const { data } = await context.client().get<ApplicationRepositories>(repositories(applicationId));
      printRepositories(context, data, context.settings().baseUrl);
    }));
  command.command('rotate-key').description('Generate a new signing key; the previous one keeps signing and is still served for 30 days')
    .argument('<applicationId>')
    .action(action(async (context, applicationId: string) => {
      const { data } = await context.client().post<ApplicationRepositories>(`${repositories(applicationId)}/rotate-key`, {});
      printRepositories(context, data, context.settings().baseUrl);
    }));
  command.command('import-key').description("Import your armoured OpenPGP private key (Ed25519, or RSA of 3072 bits and more) as the signing key")
    .argument('<applicationId>')
    .argument('<keyFile>', 'the armoured private key (gpg --armor --export-secret-keys)')
    .option('--passphrase-env <name>', 'an environment variable holding the key\'s passphrase')
    .action(action(async (context, applicationId: string, keyFile: string, options: { passphraseEnv?: string }) => {
      const privateKey = await fs.readFile(keyFile, 'utf8');
      const passphrase = options.passphraseEnv ? process.env[options.passphraseEnv] : undefined;
      const { data } = await context.client().put<ApplicationRepositories>(`${repositories(applicationId)}/key`, { privateKey, ...(passphrase ? { passphrase } : {}) });
      printRepositories(context, data, context.settings().baseUrl);
    }));
  return command;
}

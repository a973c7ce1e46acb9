import fs from 'node:fs/promises';
import { Command } from 'commander';
import { action } from '../context';
import type { AnswerOf } from '../../shared/contract/client';
import { repositorySetup } from '../../shared/packages/repository-setup';

interface SetupOptions {
  baseUrl: string;
  applicationName: string;
  channel: string;
}

/** The customer's setup, as the portal shows it: the token in the URL, or HTTP Basic with the customer id; then dnf's .repo. */
function setupLines(applicationId: string, options: SetupOptions): string[] {
  const target = { baseUrl: options.baseUrl, applicationId, applicationName: options.applicationName, channel: options.channel };
  const withToken = repositorySetup({ ...target, access: { form: 'path', token: '<access token>' } });
  const withLogin = repositorySetup({ ...target, access: { form: 'basic', customerId: '<customer id>', token: '<access token>' } });
  const indent = (text: string) => text.split('\n').map((line) => `  ${line}`);
  return [
    `\napt (Debian, Ubuntu), channel ${options.channel}, an access token in the URL:`, ...indent(withToken.apt.script),
    'apt, or the token in /etc/apt/auth.conf.d/ (login: the customer id):', ...indent(withLogin.apt.script),
    `dnf (Fedora, RHEL): ${withToken.rpm.repoFilePath}, or download ${withToken.rpm.repoFileUrl}`, ...indent(withToken.rpm.script),
  ];
}



/** What `bds repos` prints for people: the keys, each channel's packages, and the setup lines a customer pastes. */
function printRepositories(context: Parameters<Parameters<typeof action>[0]>[0], data: AnswerOf<'getApplicationRepositories'>, setup: SetupOptions): void {
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
    for (const line of setupLines(data.applicationId, setup)) context.output.line(line);
  });
}

async function setupOptions(context: Parameters<Parameters<typeof action>[0]>[0], applicationId: string, channel: string): Promise<SetupOptions> {
  const data = await context.client().getApplication({ applicationId: applicationId });
  return { baseUrl: context.settings().baseUrl.replace(/\/+$/, ''), applicationName: data.displayName ?? data.name, channel };
}

export function reposCommand(): Command {
  const command = new Command('repos').description("An application's signed apt and rpm repositories: what each channel serves, the signing keys, setup lines")
    .argument('<applicationId>')
    .option('--channel <channel>', 'the channel the setup lines name', 'stable')
    .action(action(async (context, applicationId: string, options: { channel: string }) => {
      const data = await context.client().getApplicationRepositories({ applicationId: applicationId });
      printRepositories(context, data, await setupOptions(context, applicationId, options.channel));
    }));
  command.command('rotate-key').description('Generate a new signing key; the previous one keeps signing and is still served for 30 days')
    .argument('<applicationId>')
    .action(action(async (context, applicationId: string) => {
      const data = await context.client().rotateRepositoryKey({ applicationId: applicationId }, {});
      printRepositories(context, data, await setupOptions(context, applicationId, 'stable'));
    }));
  command.command('import-key').description("Import your armoured OpenPGP private key (Ed25519, or RSA of 3072 bits and more) as the signing key")
    .argument('<applicationId>')
    .argument('<keyFile>', 'the armoured private key (gpg --armor --export-secret-keys)')
    .option('--passphrase-env <name>', 'an environment variable holding the key\'s passphrase')
    .action(action(async (context, applicationId: string, keyFile: string, options: { passphraseEnv?: string }) => {
      const privateKey = await fs.readFile(keyFile, 'utf8');
      const passphrase = options.passphraseEnv ? process.env[options.passphraseEnv] : undefined;
      const data = await context.client().importRepositoryKey({ applicationId: applicationId }, { privateKey, ...(passphrase ? { passphrase } : {}) });
      printRepositories(context, data, await setupOptions(context, applicationId, 'stable'));
    }));
  return command;
}

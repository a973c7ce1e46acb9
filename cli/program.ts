import { Command } from 'commander';
import { activityCommand } from './commands/activity';
import { adminKeysCommand } from './commands/admin-keys';
import { tokensCommand } from './commands/tokens';
import { applicationsCommand } from './commands/applications';
import { attestationsCommand } from './commands/attestations';
import { auditCommand } from './commands/audit';
import { customersCommand } from './commands/customers';
import { downloadCommand } from './commands/download';
import { filesCommand } from './commands/files';
import { loginCommand, logoutCommand } from './commands/login';
import { publishCommand } from './commands/publish';
import { releasesCommand } from './commands/releases';
import { reposCommand } from './commands/repos';
import { tufCommand } from './commands/tuf';
import { shareLinksCommand } from './commands/share-links';
import { statsCommand } from './commands/stats';
import { uploadCommand } from './commands/upload';
import { uploadsCommand } from './commands/uploads';
import { versionsCommand } from './commands/versions';
import { webhooksCommand } from './commands/webhooks';
import { CLI_VERSION } from './version';

/**
 * The `bds` command tree. --json and --profile are options of every command, groups and the program
 * included (declared here, once), so they may go anywhere: `bds --json apps list`, `bds apps --json
 * list` and `bds apps list --json` mean the same; a command reads them with optsWithGlobals. The
 * program's options stop at the first command (positional options), so a command's own --version
 * never reaches the program's.
 */
export function buildProgram(json: boolean): Command {
  const program = new Command('bds')
    .description('Publish releases to a binary distribution service and manage it, from a terminal or a pipeline.')
    .version(CLI_VERSION, '-V, --version')
    .enablePositionalOptions()
    .addHelpText('after', `
Configuration: BDS_URL and BDS_API_KEY, or a profile written by "bds login" (BDS_PROFILE or --profile picks one).
Exit codes: 0 done, 1 the service refused (API error), 2 usage or configuration error, 3 network error,
4 verification failed (upload or download digest), 70 internal error, 130 interrupted (run the same command again to resume).`);

  for (const command of [
    loginCommand(), logoutCommand(), applicationsCommand(), versionsCommand(), filesCommand(), uploadCommand(), publishCommand(), uploadsCommand(),
    customersCommand(), tokensCommand(), adminKeysCommand(), webhooksCommand(), statsCommand(), activityCommand(), auditCommand(),
    releasesCommand(), downloadCommand(), shareLinksCommand(), reposCommand(), attestationsCommand(), tufCommand(),
  ]) program.addCommand(command);

  configureTree(program, json);
  return program;
}

/**
 * Every command: parse failures end through main.ts (exit 2) and, with --json, commander prints
 * nothing itself, so the failure is one JSON object there.
 */
function configureTree(command: Command, json: boolean): void {
  command.exitOverride().showHelpAfterError(json ? false : '(add --help for usage)');
  if (json) command.configureOutput({ outputError: () => {}, writeErr: () => {} });
  command
    .option('--json', 'machine-readable output: JSON on stdout (one object per line for streaming commands); a failure is one JSON object on stderr')
    .option('--profile <name>', 'the profile written by bds login to use (default: BDS_PROFILE, else "default")');
  for (const sub of command.commands) configureTree(sub, json);
}

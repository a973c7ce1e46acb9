import { Command } from 'commander';
import { activityCommand } from './commands/activity';
import { adminKeysCommand } from './commands/admin-keys';
import { applicationsCommand } from './commands/applications';
import { auditCommand } from './commands/audit';
import { customersCommand } from './commands/customers';
import { downloadCommand } from './commands/download';
import { loginCommand, logoutCommand } from './commands/login';
import { statsCommand } from './commands/stats';
import { uploadCommand } from './commands/upload';
import { uploadsCommand } from './commands/uploads';
import { versionsCommand } from './commands/versions';
import { CLI_VERSION } from './version';

/**
 * The `bds` command tree. --json and --profile are options of every command that does something
 * (declared here, once), so they go after the command like its own options and never clash with
 * the program's --version.
 */
export function buildProgram(): Command {
  const program = new Command('bds')
    .description('Publish releases to a binary distribution service and manage it, from a terminal or a pipeline.')
    .version(CLI_VERSION, '-V, --version')
    .enablePositionalOptions()
    .addHelpText('after', `
Configuration: BDS_URL and BDS_API_KEY, or a profile written by "bds login" (BDS_PROFILE or --profile picks one).
Exit codes: 0 done, 1 the service refused (API error), 2 usage or configuration error, 3 network error,
4 verification failed (upload or download digest), 70 internal error, 130 interrupted (run the same command again to resume).`);

  for (const command of [
    loginCommand(), logoutCommand(), applicationsCommand(), versionsCommand(), uploadCommand(), uploadsCommand(),
    customersCommand(), adminKeysCommand(), statsCommand(), activityCommand(), auditCommand(), downloadCommand(),
  ]) program.addCommand(command);

  configureTree(program);
  return program;
}

function configureTree(command: Command): void {
  command.exitOverride().showHelpAfterError('(add --help for usage)');
  if (command.commands.length === 0 && command.parent) {
    command
      .option('--json', 'machine-readable output: JSON on stdout (one object per line for streaming commands)')
      .option('--profile <name>', 'the profile written by bds login to use (default: BDS_PROFILE, else "default")');
  }
  for (const sub of command.commands) configureTree(sub);
}

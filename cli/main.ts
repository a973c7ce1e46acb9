#!/usr/bin/env node
import { CommanderError } from 'commander';
import { CliError, EXIT, UsageError } from './errors';
import { Output } from './output/output';
import { buildProgram } from './program';

/** The `bds` entry point: runs one command and ends with the exit code of what happened (errors.ts). */
async function main(argv: string[]): Promise<number> {
  // --json may stand anywhere (program.ts); known before parsing, so even a parse failure is JSON.
  const json = argv.slice(2).includes('--json');
  const output = new Output(json);
  const program = buildProgram(json);
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end through here too; every other parse failure is a usage error, which
      // commander printed itself unless --json asked for it as an object.
      if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code) && error.exitCode === 0) return EXIT.ok;
      // A group run without its command shows its help (on stderr): as JSON, say what is missing.
      const message = error.code === 'commander.help' ? 'give a command (add --help for the list)' : error.message.replace(/^error: /, '');
      if (json) output.failure(new UsageError(message, error.code));
      return EXIT.usage;
    }
    const failure = error instanceof CliError ? error : new CliError(`unexpected error: ${(error as Error)?.stack ?? String(error)}`, EXIT.internal);
    output.failure(failure);
    return failure.exitCode;
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
}, (error: unknown) => {
  process.stderr.write(`bds: ${String(error)}\n`);
  process.exitCode = EXIT.internal;
});

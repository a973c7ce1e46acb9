#!/usr/bin/env node
import { CommanderError } from 'commander';
import { CliError, EXIT } from './errors';
import { Output } from './output/output';
import { buildProgram } from './program';

/** The `bds` entry point: runs one command and ends with the exit code of what happened (errors.ts). */
async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end through here too; every other parse failure is a usage error.
      return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code) && error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const output = new Output(argv.includes('--json'));
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

import fs from 'node:fs';
import { UsageError } from '../errors';

/** Release notes from --notes or --notes-file ("-" reads stdin); undefined when neither is given. */
export function releaseNotes(options: { notes?: string; notesFile?: string }): string | undefined {
  if (options.notes !== undefined && options.notesFile !== undefined) throw new UsageError('give --notes or --notes-file, not both');
  if (options.notesFile === undefined) return options.notes;
  try {
    return fs.readFileSync(options.notesFile === '-' ? 0 : options.notesFile, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${options.notesFile}: ${(error as Error).message}`);
  }
}

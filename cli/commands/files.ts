import { Command } from 'commander';
import { action } from '../context';
import { UsageError } from '../errors';
import type { AnswerOf } from '../../shared/contract/client';

/** The fileId of a version's file named by its id or by its file name (as people read it). */
async function fileIdOf(list: AnswerOf<'listVersions'>, version: string, file: string): Promise<string> {
  const found = list.versions.find((v) => v.version === version);
  if (!found) throw new UsageError(`version ${version} not found`);
  const match = found.files.find((f) => f.fileId === file) ?? found.files.find((f) => f.fileName === file);
  if (!match) throw new UsageError(`${version} has no file ${file}: its files are ${found.files.map((f) => f.fileName).join(', ') || 'none'}`);
  return match.fileId;
}

/** `bds files delete`: a failed upload's file, or a draft's file, removed with its bytes. */
export function filesCommand(): Command {
  const command = new Command('files').description("A version's files: delete one");
  command.command('delete <applicationId> <version> <file>')
    .description("Delete a file (by file name or fileId) and its bytes: a failed upload's file in any version, any file of a draft (a shipped version's files are refused: yank it)")
    .action(action(async (context, applicationId: string, version: string, file: string) => {
      const client = context.client();
      const list = await client.listVersions({ applicationId: applicationId });
      const fileId = await fileIdOf(list, version, file);
      const data = await client.deleteVersionFile({ applicationId: applicationId, version: version, fileId: fileId });
      context.output.result(data, () => context.output.line(data.message));
    }));
  return command;
}

import { Command } from 'commander';
import { action } from '../context';
import { UsageError } from '../errors';
import { apiPath } from '../http/api-client';
import { formatBytes } from '../output/format';
import { releaseNotes } from './release-notes';

export interface FileRecord {
  fileId: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  checksum: string | null;
  fileType: string;
  platform?: string;
  arch?: string;
  sha512?: string | null;
  status: string;
  createdAt: string;
}

export interface VersionRecord {
  version: string;
  releaseNotes: string | null;
  requiredTier: string | null;
  createdAt: string;
  updatedAt: string;
  files: FileRecord[];
}

const versions = (applicationId: string) => apiPath`/v1/management/applications/${applicationId}/versions`;

interface UpdateOptions {
  tier?: string | false;
  notes?: string | false;
  notesFile?: string;
}

/** The PATCH body an option set names; --no-tier and --no-notes clear the field. */
function versionChanges(options: UpdateOptions): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (options.tier !== undefined) changes.requiredTier = options.tier === false ? null : options.tier;
  if (options.notes === false) {
    if (options.notesFile !== undefined) throw new UsageError('give --no-notes or --notes-file, not both');
    changes.releaseNotes = null;
  } else {
    const notes = releaseNotes({ notes: options.notes, notesFile: options.notesFile });
    if (notes !== undefined) changes.releaseNotes = notes;
  }
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give at least one of --tier, --no-tier, --notes, --notes-file, --no-notes');
  return changes;
}

export function versionsCommand(): Command {
  const command = new Command('versions').description("An application's versions: list, update");

  command.command('list <applicationId>').description('List versions with their files, newest first')
    .action(action(async (context, applicationId: string) => {
      const { data } = await context.client().get<{ versions: VersionRecord[] }>(versions(applicationId));
      context.output.result(data, () => context.output.table(['version', 'tier', 'files', 'size', 'created'], data.versions.map((version) => [
        version.version,
        version.requiredTier,
        version.files.map((file) => `${file.fileName} (${file.fileType}, ${file.status})`).join('\n'),
        formatBytes(version.files.reduce((sum, file) => sum + file.fileSize, 0)),
        version.createdAt,
      ])));
    }));

  command.command('update <applicationId> <version>').description("Change a version's required tier or release notes")
    .option('--tier <tier>', 'the lowest customer tier that may download it')
    .option('--no-tier', 'every customer may download it')
    .option('--notes <text>', 'release notes')
    .option('--notes-file <path>', 'release notes from a file ("-": stdin)')
    .option('--no-notes', 'remove the release notes')
    .action(action(async (context, applicationId: string, version: string, options: UpdateOptions) => {
      const { data } = await context.client().patch<VersionRecord>(apiPath`/v1/management/applications/${applicationId}/versions/${version}`, versionChanges(options));
      context.output.result(data, () => {
        const { files, ...fields } = data;
        context.output.record({ ...fields, files: files.map((file) => file.fileName) });
      });
    }));

  return command;
}

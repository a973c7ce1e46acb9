import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { action } from '../context';
import { UsageError } from '../errors';
import { interruptible } from '../interrupt';
import { formatBytes } from '../output/format';
import { resumableDownload } from '../download/resumable-download';
import type { DownloadUrl } from '../http/responses';

interface DownloadOptions {
  version: string;
  channel?: string;
  platform?: string;
  arch?: string;
  fileId?: string;
  output?: string;
  force?: boolean;
}

function refuseToOverwrite(destination: string, force: boolean | undefined): void {
  if (!force && fs.existsSync(destination)) throw new UsageError(`${destination} exists: add --force to overwrite it, or -o to write elsewhere`);
}

export function downloadCommand(): Command {
  return new Command('download').argument('<applicationId>')
    .description("Download a file with a customer key: resumes an interrupted download with Range requests and checks the file's SHA-256")
    .option('--version <version>', 'an exact version, or latest: the newest offered to this customer', 'latest')
    .option('--channel <channel>', 'with latest: this channel and every more stable one (default: the most stable)')
    .option('--platform <platform>', 'windows, macos or linux: the MAIN file for it')
    .option('--arch <arch>', 'x64, arm64, ia32, armv7l or universal')
    .option('--file-id <fileId>', 'a file of the version other than its MAIN file')
    .option('-o, --output <path>', 'where to write it (default: the file name, in the current directory)')
    .option('--force', 'overwrite the output file when it exists')
    .action(action(async (context, applicationId: string, options: DownloadOptions) => {
      // Checked before the URL is asked for when the name is known: every URL issued counts as a download.
      if (options.output !== undefined) refuseToOverwrite(options.output, options.force);
      const { data: signed } = await context.client().get<DownloadUrl>('/v1/downloads/url', {
        applicationId, version: options.version, fileId: options.fileId, channel: options.channel, platform: options.platform, arch: options.arch,
      });
      const destination = options.output ?? path.basename(signed.fileName);
      refuseToOverwrite(destination, options.force);
      const outcome = await interruptible('download', (signal) => resumableDownload(signed, destination, context.output, signal));
      const result = { ...outcome, fileName: signed.fileName, fileSize: signed.fileSize, fileId: signed.fileId, version: signed.version ?? options.version };
      context.output.event('done', result);
      context.output.line(`Downloaded ${signed.fileName} (${formatBytes(signed.fileSize)}) to ${destination}, ${outcome.checksum} verified${outcome.resumedFrom ? `, resumed from byte ${outcome.resumedFrom}` : ''}`);
    }));
}

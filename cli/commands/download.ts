import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { keyKind } from '../config/settings';
import { action, type CommandContext } from '../context';
import { ApiError, UsageError } from '../errors';
import type { Client, QueryOf } from '../../shared/contract/client';

type Query = Omit<QueryOf<'getDownloadUrl'>, 'applicationId'>;
import { interruptible } from '../interrupt';
import { formatBytes } from '../../shared/byte-sizes';
import { adminDownloadUrl } from '../download/admin-download';
import { BuildSelector, hostTarget } from '../download/host-target';
import { resumableDownload, type DownloadUrl } from '../download/resumable-download';
import { SELECTABLE_ARCHS, SELECTABLE_PLATFORMS } from './choices';

interface DownloadOptions {
  version: string;
  channel?: string;
  platform?: BuildSelector['platform'];
  arch?: BuildSelector['arch'];
  fileId?: string;
  output?: string;
  force?: boolean;
  acceptLicence?: boolean;
}

/** The code the service refuses a download with until the customer accepts the application's licence. */
const LICENCE_REQUIRED = 'LICENCE_ACCEPTANCE_REQUIRED';

/**
 * A customer's URL through the licence gate: with `accept`, a refusal for want of the licence's
 * acceptance accepts its current revision and asks again; without, the refusal shows the licence and
 * how to accept it.
 */
async function licensedDownloadUrl(context: CommandContext, client: Client, applicationId: string, choice: Query, accept: boolean): Promise<DownloadUrl> {
  try {
    return await customerDownloadUrl(client, applicationId, choice);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === LICENCE_REQUIRED)) throw error;
    const licence = (await client.getLicence({ applicationId: applicationId }));
    if (!accept || licence.revision === null) {
      if (licence.text !== null) context.output.note(`${licence.text}\n`);
      throw new ApiError(error.status, error.code,
        `${applicationId} asks its customers to accept its licence (revision ${licence.revision}, shown above) before downloading: `
        + 'run the command again with --accept-licence to accept it', error.requestId);
    }
    const accepted = (await client.acceptLicence({ applicationId: applicationId }, { revision: licence.revision }));
    context.output.note(`Accepted the licence of ${applicationId} (revision ${accepted.revision}) at ${accepted.acceptedAt}`);
    return customerDownloadUrl(client, applicationId, choice);
  }
}

/** A customer's URL; an application it was not granted reads as missing, so the refusal says why it may be. */
async function customerDownloadUrl(client: Client, applicationId: string, choice: Query): Promise<DownloadUrl> {
  try {
    return await client.getDownloadUrl({ applicationId, ...choice });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404 && /^application .* not found$/.test(error.message))) throw error;
    throw new ApiError(error.status, error.code, `${error.message}: a customer sees only the applications it was granted (bds customers grant <customerId> ${applicationId})`, error.requestId, error.fieldErrors);
  }
}

function refuseToOverwrite(destination: string, force: boolean | undefined): void {
  if (!force && fs.existsSync(destination)) throw new UsageError(`${destination} exists: add --force to overwrite it, or -o to write elsewhere`);
}

export function downloadCommand(): Command {
  const host = hostTarget();
  return new Command('download').argument('<applicationId>')
    .description("Download a file: resumes an interrupted download with Range requests and checks the file's SHA-256. With a customer key, as the customer (counted as a download); with an admin key, any available file, drafts included, to test a release (not counted)")
    .option('--version <version>', 'an exact version, or latest: the newest offered to this customer (admin key: the newest published)', 'latest')
    .option('--channel <channel>', 'with latest: this channel and every more stable one (default: the most stable; admin key: this channel)')
    .addOption(new Option('--platform <platform>', `the MAIN file for this platform (default: this machine's, ${host.platform ?? 'none'})`).choices(SELECTABLE_PLATFORMS))
    .addOption(new Option('--arch <arch>', `the MAIN file for this arch (default: this machine's, ${host.arch ?? 'none'})`).choices(SELECTABLE_ARCHS))
    .option('--file-id <fileId>', 'a file of the version other than its MAIN file (with an exact --version)')
    .option('-o, --output <path>', 'where to write it (default: the file name, in the current directory)')
    .option('--force', 'overwrite the output file when it exists')
    .option('--accept-licence', "accept the application's licence (its current revision) when the service asks for it, then download")
    .action(action(async (context, applicationId: string, options: DownloadOptions) => {
      if (options.fileId !== undefined && (options.platform !== undefined || options.arch !== undefined)) {
        throw new UsageError('--file-id names the file: leave --platform and --arch out');
      }
      // This machine's build unless the file is named or the selectors given.
      const target = options.fileId === undefined ? { platform: options.platform ?? host.platform, arch: options.arch ?? host.arch } : {};
      // Checked before the URL is asked for when the name is known: every URL issued counts as a download.
      if (options.output !== undefined) refuseToOverwrite(options.output, options.force);
      const client = context.client();
      const choice = { version: options.version, fileId: options.fileId, channel: options.channel, ...target };
      const signed = keyKind(context.settings().apiKey) === 'admin'
        ? await adminDownloadUrl(client, applicationId, choice)
        : await licensedDownloadUrl(context, client, applicationId, choice, options.acceptLicence === true);
      const destination = options.output ?? path.basename(signed.fileName);
      refuseToOverwrite(destination, options.force);
      const outcome = await interruptible('download', (signal) => resumableDownload(signed, destination, context.output, signal));
      const result = { ...outcome, fileName: signed.fileName, fileSize: signed.fileSize, fileId: signed.fileId, version: signed.version ?? options.version };
      context.output.event('done', result);
      context.output.line(`Downloaded ${signed.fileName} (${formatBytes(signed.fileSize)}) to ${destination}, ${outcome.checksum} verified${outcome.resumedFrom ? `, resumed from byte ${outcome.resumedFrom}` : ''}`);
    }));
}

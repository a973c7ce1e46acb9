import { Arch, Platform, selectMainFile } from '../../shared/releases/platforms';
import { CliError, EXIT, UsageError } from '../errors';
import type { AnswerOf, Client } from '../../shared/contract/client';

export interface FileChoice {
  version: string;
  channel?: string;
  platform?: string;
  arch?: string;
  fileId?: string;
}

const notFound = (message: string) => new CliError(message, EXIT.api, { code: 'NOT_FOUND' });

/**
 * A download URL asked for with an admin key, for a vendor testing a release without a customer of
 * their own: the version and file are chosen here from the application's versions (`latest`: the
 * newest published one, in `channel` when given; an exact version may be a draft), with the
 * service's own rule for a MAIN file, and signed by the admin download route (not counted as a
 * customer's download).
 */
export async function adminDownloadUrl(client: Client, applicationId: string, choice: FileChoice): Promise<AnswerOf<'getAdminFileDownloadUrl'>> {
  const data = await client.listVersions({ applicationId }, {
    channel: choice.channel,
    status: choice.version === 'latest' ? 'published' : undefined,
  });
  const version = choice.version === 'latest' ? data.versions[0] : data.versions.find((candidate) => candidate.version === choice.version);
  if (!version) throw notFound(choice.version === 'latest' ? `${applicationId} has no published version${choice.channel ? ` in ${choice.channel}` : ''}` : `version ${choice.version} of ${applicationId} not found`);
  const available = version.files.filter((file) => file.status === 'available');
  let fileId = choice.fileId;
  if (fileId === undefined) {
    const mains = available.filter((file) => file.fileType === 'MAIN').map((file) => ({ ...file, platform: (file.platform ?? 'any') as Platform, arch: (file.arch ?? 'any') as Arch }));
    const selected = selectMainFile(mains, { platform: choice.platform as Platform | undefined, arch: choice.arch as Arch | undefined });
    const wanted = `${choice.platform ?? 'any platform'}/${choice.arch ?? 'any arch'}`;
    if (selected.kind === 'none') throw notFound(`version ${version.version} has no MAIN file for ${wanted}: give --platform and --arch, or --file-id`);
    if (selected.kind === 'ambiguous') {
      throw new UsageError(`version ${version.version} has several MAIN files for ${wanted}: give --platform and --arch (${selected.choices.map((file) => `${file.platform}/${file.arch}`).join(', ')})`);
    }
    fileId = selected.file.fileId;
  } else if (!available.some((file) => file.fileId === fileId)) {
    throw notFound(`file ${fileId} not found (available) in version ${version.version}`);
  }
  return client.getAdminFileDownloadUrl({ applicationId, version: version.version, fileId });
}

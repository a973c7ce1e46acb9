import { Command, Option } from 'commander';
import { SHARE_LINK_MAX_DOWNLOADS, SHARE_LINK_MAX_MINUTES } from '../../shared/policy';
import { action, integerOption } from '../context';
import { UsageError } from '../errors';
import { BuildSelector, hostTarget } from '../download/host-target';
import { SELECTABLE_ARCHS, SELECTABLE_PLATFORMS } from './choices';

interface CreateOptions {
  version: string;
  channel?: string;
  platform?: BuildSelector['platform'];
  arch?: BuildSelector['arch'];
  fileId?: string;
  expiresIn?: number;
  maxDownloads?: number;
}

/** Share links, made and revoked with a customer key: a URL that downloads one file without a key. */
export function shareLinksCommand(): Command {
  const host = hostTarget();
  const command = new Command('share').description('With a customer key: share links that download a file without a key (create, revoke)');

  command.command('create <applicationId>').description('Create a share link to a file this customer may download')
    .option('--version <version>', 'an exact version, or latest', 'latest')
    .option('--channel <channel>', 'with latest: this channel and every more stable one')
    .addOption(new Option('--platform <platform>', `the MAIN file for this platform (default: this machine's, ${host.platform ?? 'none'})`).choices(SELECTABLE_PLATFORMS))
    .addOption(new Option('--arch <arch>', `the MAIN file for this arch (default: this machine's, ${host.arch ?? 'none'})`).choices(SELECTABLE_ARCHS))
    .option('--file-id <fileId>', 'a file of the version other than its MAIN file (with an exact --version)')
    .option('--expires-in <minutes>', `minutes the link works (1-${SHARE_LINK_MAX_MINUTES})`, integerOption('--expires-in', 1, SHARE_LINK_MAX_MINUTES))
    .option('--max-downloads <n>', `downloads the link allows (1-${SHARE_LINK_MAX_DOWNLOADS})`, integerOption('--max-downloads', 1, SHARE_LINK_MAX_DOWNLOADS))
    .action(action(async (context, applicationId: string, options: CreateOptions) => {
      if (options.fileId !== undefined && (options.platform !== undefined || options.arch !== undefined)) {
        throw new UsageError('--file-id names the file: leave --platform and --arch out');
      }
      // This machine's build unless the file is named or the selectors given, as bds download picks.
      const platform = options.fileId === undefined ? options.platform ?? host.platform : undefined;
      const arch = options.fileId === undefined ? options.arch ?? host.arch : undefined;
      const data = await context.client().createShareLink({
        applicationId,
        version: options.version,
        ...(options.channel !== undefined ? { channel: options.channel } : {}),
        ...(platform !== undefined ? { platform } : {}),
        ...(arch !== undefined ? { arch } : {}),
        ...(options.fileId !== undefined ? { fileId: options.fileId } : {}),
        ...(options.expiresIn !== undefined ? { expiresInMinutes: options.expiresIn } : {}),
        ...(options.maxDownloads !== undefined ? { maxDownloads: options.maxDownloads } : {}),
      });
      context.output.result(data, () => {
        context.output.record({ ...data });
        context.output.note(`Revoke it with: bds share revoke ${data.token}`);
      });
    }));

  command.command('revoke <token>').description('Revoke a share link this customer created: its next use is refused')
    .action(action(async (context, token: string) => {
      const data = await context.client().revokeShareLink({ token: token });
      context.output.result(data, () => context.output.line(`${data.message} at ${data.revokedAt}`));
    }));

  return command;
}

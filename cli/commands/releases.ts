import type { QueryOf } from '../../shared/contract/client';
import { Command, Option } from 'commander';
import { action } from '../context';
import { formatBytes } from '../../shared/byte-sizes';
import { SELECTABLE_ARCHS, SELECTABLE_PLATFORMS } from './choices';
import { pageFooter, PageOptions, withPageOptions } from './pages';

/** What a customer key may download of an application: the releases it is offered, newest first, with their files. */
export function releasesCommand(): Command {
  return withPageOptions(new Command('releases').argument('<applicationId>')
    .description('With a customer key: the releases of an application this customer may download, newest first, with their files (bds download fetches one)')
    .option('--channel <channel>', 'this channel and every more stable one (default: the most stable)')
    .addOption(new Option('--platform <platform>', 'files for this platform (and those for any)').choices(SELECTABLE_PLATFORMS))
    .addOption(new Option('--arch <arch>', 'files for this arch (and those for any)').choices(SELECTABLE_ARCHS)))
    .action(action(async (context, applicationId: string, options: PageOptions & Pick<QueryOf<'listReleases'>, 'channel' | 'platform' | 'arch'>) => {
      const data = await context.client().listReleases({
        applicationId, channel: options.channel, platform: options.platform, arch: options.arch, page: options.page, pageSize: options.pageSize,
      });
      context.output.result(data, () => {
        context.output.table(['version', 'channel', 'published', 'file', 'type', 'platform', 'size', 'file id'], data.releases.flatMap((release) =>
          release.files.map((file, index) => [
            index === 0 ? release.version : '', index === 0 ? release.channel : '', index === 0 ? release.publishedAt : '',
            file.fileName, file.fileType, `${file.platform}/${file.arch}`, formatBytes(file.fileSize), file.fileId,
          ])));
        pageFooter(context.output, data.pagination, 'releases');
      });
    }));
}

import path from 'node:path';
import { Command, Option } from 'commander';
import { planRelease, RECOGNISED_TOOLS, type PublishPlan } from '../../shared/publishing';
import { action, collect, CommandContext, integerOption } from '../context';
import { formatBytes } from '../../shared/byte-sizes';
import { listBuildFiles, localReader, localVerifier } from '../publish/local-build';
import { publishRelease, PublishRefusal } from '../publish/publish-release';
import { warnOfStrandedInstalls } from '../publish/signing-key-warning';
import { releaseNotes } from './release-notes';

const DEFAULT_CONCURRENCY = 3;
const MAX_CONCURRENCY = 16;

interface PublishOptions {
  version?: string;
  channel?: string;
  status?: 'draft' | 'published';
  notes?: string;
  include?: string[];
  exclude?: string[];
  dryRun?: boolean;
  concurrency: number;
}

function printPlan(context: CommandContext, applicationId: string, plan: PublishPlan): void {
  const { output } = context;
  output.event('plan', { applicationId, version: plan.version, tools: plan.tools, versionFields: plan.versionFields, files: plan.files, skipped: plan.skipped });
  output.line(`${applicationId} ${plan.version}: ${plan.files.length} files from ${plan.tools.join(', ')}`);
  output.table(['file', 'platform', 'arch', 'type', 'size', 'for'], plan.files.map((file) => [file.path ?? `${file.fileName} *`, file.platform, file.arch, file.fileType, formatBytes(file.size), file.purpose]));
  if (plan.files.some((file) => file.path === null)) output.line('* written from the build tool\'s metadata');
  if (plan.skipped.length > 0) output.note(`Not uploaded: ${plan.skipped.map((file) => `${file.path} (${file.reason})`).join('; ')}`);
}

async function publish(context: CommandContext, applicationId: string, directory: string, options: PublishOptions): Promise<void> {
  const root = path.resolve(directory);
  const files = listBuildFiles(root);
  const notes = releaseNotes({ notesFile: options.notes });
  const client = context.client();
  const application = await client.getApplication({ applicationId: applicationId });
  const reader = localReader(root);
  const plan = await planRelease({
    files, reader, verify: localVerifier(root), version: options.version, include: options.include, exclude: options.exclude,
    keys: { updateSigningKey: application.updateSigningKey, sparklePublicKey: application.sparklePublicKey, retiredSigningKeys: application.retiredSigningKeys },
  });
  if (plan.problems.length > 0) throw new PublishRefusal(plan.problems);
  printPlan(context, applicationId, plan);
  warnOfStrandedInstalls(context, applicationId, application.strandedInstalls);
  if (options.dryRun) {
    context.output.event('done', { dryRun: true, sent: 0 });
    context.output.line('Dry run: nothing was sent.');
    return;
  }
  await publishRelease(context, {
    applicationId, root, plan, application, channel: options.channel, status: options.status ?? application.defaultVersionStatus,
    releaseNotes: notes, concurrency: options.concurrency, sha256: reader.sha256,
  });
}

export function publishCommand(): Command {
  const tools = Object.values(RECOGNISED_TOOLS).map((tool) => `  - ${tool}`).join('\n');
  return new Command('publish')
    .argument('<applicationId>').argument('<directory>', 'the folder the build tool wrote')
    .description('Publish a whole release from a build tool\'s output folder: prints the plan (each file\'s platform, arch, type and purpose), refuses before sending a byte when the folder is inconsistent, uploads the files in parallel to a draft, then publishes the version in one change')
    .option('--version <version>', 'the version (default: the one the build tool wrote; refused when it differs)')
    .option('--channel <channel>', 'the channel of the version (default: the first of the service\'s CHANNELS)')
    .addOption(new Option('--status <status>', "the version's status once every file is stored (default: the application's defaultVersionStatus)").choices(['draft', 'published']))
    .option('--notes <file.md>', 'release notes from a Markdown file ("-": stdin)')
    .option('--include <glob>', 'upload a file no recognised tool wrote, as an OTHER file (repeatable)', collect)
    .option('--exclude <glob>', 'leave matching files out (repeatable)', collect)
    .option('--dry-run', 'print the plan and the problems, send nothing')
    .option('--concurrency <n>', 'files sent at a time', integerOption('--concurrency', 1, MAX_CONCURRENCY), DEFAULT_CONCURRENCY)
    .addHelpText('after', `
Recognised build tools:
${tools}

Run the same command again after an interruption: stored files are not sent again, an interrupted
upload resumes, and customers see nothing of the version until every file is stored and verified.`)
    .action(action(async (context, applicationId: string, directory: string, options: PublishOptions) => {
      await publish(context, applicationId, directory, options);
    }));
}

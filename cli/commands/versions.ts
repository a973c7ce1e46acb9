import type { QueryOf } from '../../shared/contract/client';
import { Command, Option } from 'commander';
import { VERSION_STATUSES } from './choices';
import { action, integerOption } from '../context';
import { UsageError } from '../errors';
import { formatBytes } from '../../shared/byte-sizes';
import { releaseNotes } from './release-notes';


interface UpdateOptions {
  channel?: string;
  status?: string;
  rollout?: number;
  rolloutPlan?: string;
  tier?: string | false;
  notes?: string | false;
  notesFile?: string;
  bundleVersion?: string | false;
  minimumSystemVersion?: string | false;
  critical?: boolean;
  yankReason?: string;
  rollbackTo?: string;
}

/** The PATCH body an option set names; --no-tier and --no-notes clear the field. */
function versionChanges(options: UpdateOptions): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (options.channel !== undefined) changes.channel = options.channel;
  if (options.status !== undefined) changes.status = options.status;
  if (options.rollout !== undefined) changes.rolloutPercentage = options.rollout;
  if (options.rolloutPlan !== undefined) changes.rolloutPlan = parsePlan(options.rolloutPlan);
  if (options.bundleVersion !== undefined) changes.bundleVersion = options.bundleVersion === false ? null : options.bundleVersion;
  if (options.minimumSystemVersion !== undefined) changes.minimumSystemVersion = options.minimumSystemVersion === false ? null : options.minimumSystemVersion;
  if (options.critical !== undefined) changes.critical = options.critical;
  if (options.yankReason !== undefined) {
    if (options.status !== 'yanked') throw new UsageError('--yank-reason goes with --status yanked: it says why the version is withdrawn');
    changes.yankReason = options.yankReason;
  }
  if (options.rollbackTo !== undefined) {
    if (options.status !== 'yanked') throw new UsageError('--rollback-to goes with --status yanked: installs running the yanked version are offered it');
    changes.rollbackTo = options.rollbackTo;
  }
  if (options.tier !== undefined) changes.requiredTier = options.tier === false ? null : options.tier;
  if (options.notes === false) {
    if (options.notesFile !== undefined) throw new UsageError('give --no-notes or --notes-file, not both');
    changes.releaseNotes = null;
  } else {
    const notes = releaseNotes({ notes: options.notes, notesFile: options.notesFile });
    if (notes !== undefined) changes.releaseNotes = notes;
  }
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give at least one of --channel, --status, --rollout, --rollout-plan, --tier, --no-tier, --notes, --notes-file, --no-notes, --bundle-version, --minimum-system-version, --critical, --not-critical');
  return changes;
}

export function versionsCommand(): Command {
  const command = new Command('versions').description("An application's versions: list, update (publish, yank, channel, rollout, tier, notes), delete a draft");

  command.command('list <applicationId>').description('List versions with their files, newest first by the version order (drafts and yanked ones included)')
    .option('--channel <channel>', 'this channel only (no cascade)')
    .addOption(new Option('--status <status>', 'this status only').choices(VERSION_STATUSES))
    .action(action(async (context, applicationId: string, options: Pick<QueryOf<'listVersions'>, 'channel' | 'status'>) => {
      const data = await context.client().listVersions({ applicationId: applicationId }, { channel: options.channel, status: options.status });
      context.output.result(data, () => context.output.table(['version', 'channel', 'status', 'rollout', 'tier', 'files', 'size', 'created'], data.versions.map((version) => [
        version.version,
        version.channel,
        version.status,
        `${version.rolloutPercentage}%`,
        version.requiredTier,
        version.files.map((file) => `${file.fileName} (${file.fileType}, ${file.platform ?? 'any'}/${file.arch ?? 'any'}, ${file.status})`).join('\n'),
        formatBytes(version.files.reduce((sum, file) => sum + file.fileSize, 0)),
        version.createdAt,
      ])));
    }));

  command.command('update <applicationId> <version>').description("Change a version: publish a draft, yank or un-yank it, move it to another channel, set its rollout, tier or notes")
    .addOption(new Option('--status <status>', 'published (publish a draft, or bring a yanked version back) or yanked (withdraw it)').choices(VERSION_STATUSES))
    .option('--channel <channel>', 'one of the service\'s CHANNELS')
    .option('--rollout <percent>', 'offer it as latest to this share of customers (1-100)', integerOption('--rollout', 1, 100))
    .option('--rollout-plan <json>', 'a rollout plan, e.g. \'{"steps":[{"percentage":5,"after":"0h"},{"percentage":100,"after":"72h"}],"halt":{"minOffered":50,"minSuccessRate":0.9,"maxFailureReports":10}}\'')
    .option('--tier <tier>', 'the lowest customer tier that may download it')
    .option('--no-tier', 'every customer may download it')
    .option('--notes <text>', 'release notes')
    .option('--notes-file <path>', 'release notes from a file ("-": stdin)')
    .option('--no-notes', 'remove the release notes')
    .option('--bundle-version <version>', "the app's CFBundleVersion, which Sparkle compares (the version string when unset)")
    .option('--no-bundle-version', 'Sparkle compares the version string')
    .option('--minimum-system-version <version>', 'the oldest system version it runs on (Sparkle: 11.0)')
    .option('--no-minimum-system-version', 'it runs on any system version')
    .addOption(new Option('--critical', 'Sparkle installs it without letting the user skip it'))
    .addOption(new Option('--not-critical', 'an ordinary update').implies({ critical: false }))
    .option('--yank-reason <text>', 'with --status yanked: why it is withdrawn (customers and the console see it)')
    .option('--rollback-to <version>', 'with --status yanked: an earlier published version every feed offers instead to installs running this one (as each client accepts a downgrade; docs/shipping-updates.md)')
    .action(action(async (context, applicationId: string, version: string, options: UpdateOptions) => {
      const data = await context.client().updateVersion({ applicationId: applicationId, version: version }, versionChanges(options));
      context.output.result(data, () => {
        const { files, ...fields } = data;
        context.output.record({ ...fields, files: files.map((file) => file.fileName) });
      });
    }));

  command.command('delete <applicationId> <version>').description('Delete a draft version with its files and their bytes (a published or yanked version is refused: yank it)')
    .action(action(async (context, applicationId: string, version: string) => {
      const data = await context.client().deleteDraftVersion({ applicationId: applicationId, version: version });
      context.output.result(data, () => context.output.line(data.message));
    }));

  command.addCommand(rolloutCommand());
  return command;
}

function parsePlan(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError('--rollout-plan must be JSON: {"steps": [{"percentage", "after"}], "halt": {"minOffered", "minSuccessRate", "maxFailureReports"}}');
  }
}

/** `bds versions rollout health|resume|stop`: a release's update funnel, and its rollout plan resumed or stopped. */
function rolloutCommand(): Command {
  const command = new Command('rollout').description("A version's rollout plan: its release's health, resume a halted plan, stop one");
  command.command('health <applicationId> <version>').description('The update funnel (offered, downloaded, arrived, stuck, success rate) per day of offer, and the plan')
    .action(action(async (context, applicationId: string, version: string) => {
      const data = await context.client().getVersionHealth({ applicationId: applicationId, version: version });
      context.output.result(data, () => {
        const rate = (value: number | null) => (value === null ? '-' : `${Math.round(value * 1000) / 10}%`);
        const { figures, rolloutPlan: plan } = data;
        context.output.line(`offered ${figures.offered}, downloaded ${figures.downloaded}, arrived ${figures.arrived}, stuck ${figures.stuck} of ${figures.matured} judged, success ${rate(figures.successRate)}`);
        if (plan) context.output.line(`plan ${plan.status} at step ${plan.step + 1} of ${plan.steps.length}${plan.haltReason ? ` (halted: ${plan.haltReason})` : ''}`);
        context.output.table(['offered on', 'offered', 'downloaded', 'arrived', 'stuck', 'success'], data.days.map((day) => [
          day.date, String(day.offered), String(day.downloaded), String(day.arrived), String(day.stuck), rate(day.successRate),
        ]));
      });
    }));
  for (const [name, description] of [['resume', 'Run a halted plan again from its step'], ['stop', 'Stop a plan for good (the version keeps its percentage)']] as const) {
    command.command(`${name} <applicationId> <version>`).description(description)
      .action(action(async (context, applicationId: string, version: string) => {
        const client = context.client();
        const data = await (name === 'resume' ? client.resumeVersionRollout : client.stopVersionRollout)({ applicationId, version });
        context.output.result(data, () => context.output.record({ ...data, steps: data.steps.map((step) => `${step.percentage}% after ${step.after}`).join(', ') }));
      }));
  }
  return command;
}

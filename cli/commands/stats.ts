import type { QueryOf } from '../../shared/contract/client';
import * as asciichart from 'asciichart';
import { Command, Option } from 'commander';
import { action } from '../context';
import type { Output } from '../output/output';
import { FILE_ARCHS, FILE_PLATFORMS } from './choices';
import { DAY_MS } from '../../shared/durations';

const CHART_HEIGHT = 10;
/** Room the chart's axis labels take on each line. */
const CHART_AXIS_WIDTH = 12;
const MAX_COLUMNS_PER_DAY = 6;

/** One count per UTC day from the first day to the last, oldest first, days without downloads as 0. */
export function dailySeries(days: { date: string; count: number }[], from?: string, to?: string): { dates: string[]; counts: number[] } {
  if (days.length === 0 && (!from || !to)) return { dates: [], counts: [] };
  const counts = new Map(days.map((day) => [day.date, day.count]));
  const sorted = days.map((day) => day.date).sort();
  const start = Date.parse(`${from ?? sorted[0]}T00:00:00Z`);
  const end = Date.parse(`${to ?? sorted[sorted.length - 1]}T00:00:00Z`);
  const dates: string[] = [];
  for (let day = start; day <= end; day += DAY_MS) dates.push(new Date(day).toISOString().slice(0, 10));
  return { dates, counts: dates.map((date) => counts.get(date) ?? 0) };
}

export function statsCommand(): Command {
  return new Command('stats').argument('<applicationId>').description("An application's downloads: by version, platform, channel and arch, the customers with most downloads, and by UTC day as a table and a chart")
    .option('--version <version>', 'one version only')
    .option('--channel <channel>', 'only the versions now in this channel (exactly, no cascade)')
    .option('--from <YYYY-MM-DD>', 'first day (inclusive)')
    .option('--to <YYYY-MM-DD>', 'last day (inclusive)')
    .action(action(async (context, applicationId: string, options: { version?: string; channel?: string; from?: string; to?: string }) => {
      const data = await context.client().getApplicationStatistics({ applicationId: applicationId }, {
        version: options.version, channel: options.channel, from: options.from, to: options.to,
      });
      context.output.result(data, () => {
        const { output } = context;
        output.line(`${data.applicationId}: ${data.totalDownloads} download${data.totalDownloads === 1 ? '' : 's'}`);
        output.table(['version', 'downloads'], Object.entries(data.downloadsByVersion).sort(([, a], [, b]) => b - a));
        output.table(['platform', 'downloads'], Object.entries(data.downloadsByPlatform).sort(([, a], [, b]) => b - a));
        output.table(['channel', 'downloads'], Object.entries(data.downloadsByChannel).sort(([, a], [, b]) => b - a));
        output.table(['arch', 'downloads'], Object.entries(data.downloadsByArch).sort(([, a], [, b]) => b - a));
        output.table(['customer', 'downloads'], data.topCustomers.map((c) => [c.customerId, c.downloads]));
        output.table(['day (UTC)', 'downloads'], data.downloadsByDay.map((day) => [day.date, day.count]));
        const { dates, counts } = dailySeries(data.downloadsByDay, options.from, options.to);
        dailyChart(output, dates, counts);
      });
    }))
    // Its options stop at the subcommand: `stats adoption` has options of the same names.
    .enablePositionalOptions()
    .addCommand(adoptionCommand());
}

/**
 * A chart of one count per day, as wide as the terminal allows: the latest days when there are more,
 * each day a few columns wide when there are few; one row per unit when counts are small.
 */
function dailyChart(output: Output, dates: string[], counts: number[]): void {
  if (counts.length < 2) return;
  const room = Math.max(10, (process.stdout.columns || 80) - CHART_AXIS_WIDTH);
  const shown = counts.slice(-room);
  const columnsPerDay = Math.max(1, Math.min(MAX_COLUMNS_PER_DAY, Math.floor(room / shown.length)));
  const series = shown.flatMap((count) => Array<number>(columnsPerDay).fill(count));
  const height = Math.max(1, Math.min(CHART_HEIGHT, Math.max(...shown)));
  output.line();
  output.line(asciichart.plot(series, { height, format: (value: number) => Math.round(value).toString().padStart(CHART_AXIS_WIDTH - 4) }));
  output.line(`${' '.repeat(CHART_AXIS_WIDTH - 2)}${dates[dates.length - shown.length]} … ${dates[dates.length - 1]} (UTC)`);
}

/** "stable 1.1.0, beta 1.2.0-beta.1": the release each channel's installs are compared with. */
const latestText = (latest: Record<string, string>): string => Object.entries(latest).map(([channel, version]) => `${channel} ${version}`).join(', ') || '-';

const percent = (part: number, whole: number): string => (whole === 0 ? '-' : `${Math.round((part / whole) * 100)}%`);

/** `bds stats adoption <applicationId>`: who runs which version, and how fast releases spread. */
function adoptionCommand(): Command {
  return new Command('adoption').argument('<applicationId>')
    .description("An application's update checks: active installs per UTC day, by running version, on the latest release, and how fast each release spread (chart of active installs); --customers lists what each customer's installs run")
    .option('--from <YYYY-MM-DD>', 'first day (inclusive; default 29 days before --to)')
    .option('--to <YYYY-MM-DD>', 'last day (inclusive; default today)')
    .option('--channel <channel>', 'checks of this channel only')
    .addOption(new Option('--platform <platform>', 'checks of this platform only').choices(FILE_PLATFORMS))
    .addOption(new Option('--arch <arch>', 'checks of this arch only').choices(FILE_ARCHS))
    .option('--customers', "per customer, the versions its installs last reported (paged: --page, --page-size)")
    .option('--page <n>', 'page of customers', '1')
    .option('--page-size <n>', 'customers per page', '20')
    .action(action(async (context, applicationId: string, options: {
      from?: string; to?: string; channel?: string; platform?: QueryOf<'getApplicationAdoption'>['platform']; arch?: QueryOf<'getApplicationAdoption'>['arch']; customers?: boolean; page: string; pageSize: string;
    }) => {
      if (options.customers) {
        const data = await context.client().listCustomerAdoption({ applicationId: applicationId }, {
          page: Number(options.page), pageSize: Number(options.pageSize),
        });
        context.output.result(data, () => {
          context.output.table(['customer', 'version', 'last reported (UTC)'],
            data.customers.flatMap((c) => c.versions.map((v, i) => [i === 0 ? c.customerId : '', v.version, v.lastReportedAt])));
          const { page, totalPages, total } = data.pagination;
          context.output.line(`page ${page} of ${Math.max(1, totalPages)} (${total} customer${total === 1 ? '' : 's'})`);
        });
        return;
      }
      const data = await context.client().getApplicationAdoption({ applicationId: applicationId }, {
        from: options.from, to: options.to, channel: options.channel, platform: options.platform, arch: options.arch,
      });
      context.output.result(data, () => {
        const { output } = context;
        output.table(['day (UTC)', 'checks', 'active installs', 'on latest', 'outdated', 'latest (per channel)'],
          data.days.filter((day) => day.checks > 0).map((day) => [
            day.date, day.checks, day.activeInstalls, `${day.onLatest} (${percent(day.onLatest, day.activeInstalls)})`, day.outdated, latestText(day.latest),
          ]));
        const last = [...data.days].reverse().find((day) => day.checks > 0);
        if (last) {
          output.line(`running versions on ${last.date}:`);
          output.table(['version', 'installs', 'share'],
            Object.entries(last.byVersion).sort(([, a], [, b]) => b - a).map(([version, installs]) => [version, installs, percent(installs, last.activeInstalls)]));
        }
        output.table(['release', 'published (UTC)', 'days to 50%', 'days to 90%'],
          data.releases.map((r) => [r.version, r.publishedAt.slice(0, 10), r.daysTo50 ?? '-', r.daysTo90 ?? '-']));
        dailyChart(output, data.days.map((day) => day.date), data.days.map((day) => day.activeInstalls));
      });
    }));
}

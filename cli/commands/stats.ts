import * as asciichart from 'asciichart';
import { Command } from 'commander';
import { action } from '../context';
import { apiPath } from '../http/api-client';
import type { ApplicationStatistics } from '../http/responses';

const CHART_HEIGHT = 10;
/** Room the chart's axis labels take on each line. */
const CHART_AXIS_WIDTH = 12;
const MAX_COLUMNS_PER_DAY = 6;
const DAY_MS = 86_400_000;

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
  return new Command('stats').argument('<applicationId>').description("An application's downloads: by version, by platform, and by UTC day as a table and a chart")
    .option('--version <version>', 'one version only')
    .option('--channel <channel>', 'only the versions now in this channel (exactly, no cascade)')
    .option('--from <YYYY-MM-DD>', 'first day (inclusive)')
    .option('--to <YYYY-MM-DD>', 'last day (inclusive)')
    .action(action(async (context, applicationId: string, options: { version?: string; channel?: string; from?: string; to?: string }) => {
      const { data } = await context.client().get<ApplicationStatistics>(apiPath`/v1/applications/${applicationId}/stats`, {
        version: options.version, channel: options.channel, from: options.from, to: options.to,
      });
      context.output.result(data, () => {
        const { output } = context;
        output.line(`${data.applicationId}: ${data.totalDownloads} download${data.totalDownloads === 1 ? '' : 's'}`);
        output.table(['version', 'downloads'], Object.entries(data.downloadsByVersion).sort(([, a], [, b]) => b - a));
        output.table(['platform', 'downloads'], Object.entries(data.downloadsByPlatform).sort(([, a], [, b]) => b - a));
        output.table(['day (UTC)', 'downloads'], data.downloadsByDay.map((day) => [day.date, day.count]));
        const { dates, counts } = dailySeries(data.downloadsByDay, options.from, options.to);
        if (counts.length < 2) return;
        // As wide as the terminal allows: the latest days when there are more, each day a few
        // columns wide when there are few; one row per download when they are few.
        const room = Math.max(10, (process.stdout.columns || 80) - CHART_AXIS_WIDTH);
        const shown = counts.slice(-room);
        const columnsPerDay = Math.max(1, Math.min(MAX_COLUMNS_PER_DAY, Math.floor(room / shown.length)));
        const series = shown.flatMap((count) => Array<number>(columnsPerDay).fill(count));
        const height = Math.max(1, Math.min(CHART_HEIGHT, Math.max(...shown)));
        output.line();
        output.line(asciichart.plot(series, { height, format: (value: number) => Math.round(value).toString().padStart(CHART_AXIS_WIDTH - 4) }));
        output.line(`${' '.repeat(CHART_AXIS_WIDTH - 2)}${dates[dates.length - shown.length]} … ${dates[dates.length - 1]} (UTC)`);
      });
    }));
}

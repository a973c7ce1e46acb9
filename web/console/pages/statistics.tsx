import 'uplot/dist/uPlot.min.css';
import type { FunctionComponent } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { applicationListResponse } from '../../../shared/contract/applications';
import type { statisticsResponse } from '../../../shared/contract/statistics';
import { api, type Wire } from '../../common/api';
import { ScrollTable } from '../../common/scroll-table';
import { ErrorNotice, Loading, PageHeader, SelectField, TextField } from '../../common/components';
import { useLoad } from '../../common/hooks';
import { navigate, useLocation } from '../../common/router';
import { CONSOLE_BASE } from '../routes';

type Statistics = Wire<typeof statisticsResponse>;
type ApplicationList = Wire<typeof applicationListResponse>;
type Chart = FunctionComponent<{ days: ReadonlyArray<{ date: string; count: number }>; label: string }>;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 365 days' },
];

/** The chart's code, fetched once, the first time a chart is drawn. */
let chartModule: Promise<Chart> | undefined;
const loadChart = () => (chartModule ??= import('./downloads-chart').then((module) => module.DownloadsChart));

/** The days from `from` to `to`, each with its count (the API leaves days without downloads out). */
export function everyDay(from: string, to: string, counted: ReadonlyArray<{ date: string; count: number }>) {
  const counts = new Map(counted.map((day) => [day.date, day.count]));
  const days: Array<{ date: string; count: number }> = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS) {
    const date = isoDay(ms);
    days.push({ date, count: counts.get(date) ?? 0 });
  }
  return days;
}

/** An application's downloads over a period: by day as a chart, and by version and platform. */
export function StatisticsPage() {
  const { query } = useLocation();
  const applications = useLoad((signal) => api<ApplicationList>('/v1/management/applications', { query: { pageSize: 100 }, signal }), []);
  const applicationId = query.get('applicationId') ?? applications.data?.applications[0]?.applicationId ?? '';
  const period = query.get('period') ?? '30';
  const channel = query.get('channel') ?? '';
  const [channelInput, setChannelInput] = useState(channel);
  const to = isoDay(Date.now());
  const from = isoDay(Date.now() - (Number(period) - 1) * DAY_MS);
  const setQuery = (changes: Record<string, string>) => {
    const next = new URLSearchParams(location.search);
    if (!next.get('applicationId') && applicationId) next.set('applicationId', applicationId);
    for (const [name, value] of Object.entries(changes)) { if (value) next.set(name, value); else next.delete(name); }
    navigate(`${CONSOLE_BASE}/statistics?${next.toString()}`, { replace: true });
  };
  const stats = useLoad(
    (signal) => applicationId
      ? api<Statistics>(`/v1/applications/${encodeURIComponent(applicationId)}/stats`, { query: { from, to, channel }, signal })
      : Promise.resolve(undefined),
    [applicationId, from, to, channel],
  );
  const days = useMemo(() => (stats.data ? everyDay(from, to, stats.data.downloadsByDay) : []), [stats.data, from, to]);
  const [Chart, setChart] = useState<Chart | null>(null);
  const [chartError, setChartError] = useState<unknown>();
  useEffect(() => {
    if (stats.data && !Chart) loadChart().then((component) => setChart(() => component), setChartError);
  }, [stats.data, Chart]);

  const options = (applications.data?.applications ?? []).map((a) => ({ value: a.applicationId, label: a.name }));
  return (
    <>
      <PageHeader title="Statistics">
        <a href={`${CONSOLE_BASE}/activity${applicationId ? `?applicationId=${encodeURIComponent(applicationId)}` : ''}`}>Activity feed</a>
      </PageHeader>
      <form class="toolbar" aria-label="What to count" onSubmit={(event) => { event.preventDefault(); setQuery({ channel: channelInput.trim() }); }}>
        <SelectField label="Application" value={applicationId} onChange={(e) => setQuery({ applicationId: (e.target as HTMLSelectElement).value })}
          options={options.length ? options : [{ value: '', label: 'No application' }]} />
        <SelectField label="Period" value={period} onChange={(e) => setQuery({ period: (e.target as HTMLSelectElement).value })} options={PERIODS} />
        <TextField label="Channel" hint="Only versions now in it; empty for all" value={channelInput} onInput={(e) => setChannelInput((e.target as HTMLInputElement).value)} />
        <button type="submit" class="button secondary">Apply</button>
      </form>
      <ErrorNotice error={applications.error ?? stats.error} onRetry={applications.error ? applications.reload : stats.reload} />
      {applications.data && options.length === 0 && <p>There is no application to count yet.</p>}
      {stats.loading && !stats.data && applicationId && <Loading label="Counting downloads" />}
      {stats.data && (
        <>
          <section class="card" aria-labelledby="stats-by-day">
            <h2 id="stats-by-day">Downloads by day</h2>
            <p class="stat-figure" data-total>{stats.data.totalDownloads.toLocaleString()} <span class="hint">downloads from {from} to {to} (UTC days)</span></p>
            <ErrorNotice error={chartError} />
            {Chart ? <Chart days={days} label={`Downloads by day from ${from} to ${to}: ${stats.data.totalDownloads} in all`} /> : !chartError && <Loading label="Drawing the chart" />}
            <details>
              <summary>The days as a table</summary>
              <CountTable caption="Downloads by day" heading="Day" rows={[...stats.data.downloadsByDay].map((d) => [d.date, d.count] as const)} />
            </details>
          </section>
          <div class="grid-2">
            <section class="card" aria-labelledby="stats-by-version">
              <h2 id="stats-by-version">By version</h2>
              <CountTable caption="Downloads by version" heading="Version" rows={sorted(stats.data.downloadsByVersion)} />
            </section>
            <section class="card" aria-labelledby="stats-by-platform">
              <h2 id="stats-by-platform">By platform</h2>
              <CountTable caption="Downloads by platform" heading="Platform" rows={sorted(stats.data.downloadsByPlatform)} />
            </section>
          </div>
        </>
      )}
    </>
  );
}

const sorted = (counts: Record<string, number>) => Object.entries(counts).sort((a, b) => b[1] - a[1]);

function CountTable({ caption, heading, rows }: { caption: string; heading: string; rows: ReadonlyArray<readonly [string, number]> }) {
  if (rows.length === 0) return <p>No download in this period.</p>;
  return (
    <ScrollTable label={caption}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead><tr><th scope="col">{heading}</th><th scope="col">Downloads</th></tr></thead>
        <tbody>{rows.map(([name, count]) => <tr key={name}><td>{name}</td><td>{count.toLocaleString()}</td></tr>)}</tbody>
      </table>
    </ScrollTable>
  );
}

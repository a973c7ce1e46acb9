import 'uplot/dist/uPlot.min.css';
import type { FunctionComponent } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { adoptionResponse } from '../../../shared/contract/adoption';
import { client, type Wire } from '../../common/api';
import { ScrollTable } from '../../common/scroll-table';
import { ErrorNotice, Loading, PageHeader, SelectField, TextField } from '../../common/components';
import { formatDate } from '../../common/format';
import { useLoad } from '../../common/hooks';
import { navigate, useLocation } from '../../common/router';
import { CONSOLE_BASE } from '../paths';
import type { DailyChartProps } from './daily-chart';
import { DAY_MS } from '../../../shared/durations';

type Adoption = Wire<typeof adoptionResponse>;
type Chart = FunctionComponent<DailyChartProps>;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 365 days' },
];

/** The chart's code, fetched once, the first time a chart is drawn. */
let chartModule: Promise<Chart> | undefined;
const loadChart = () => (chartModule ??= import('./daily-chart').then((module) => module.DailyChart));

const DOWNLOADS_COLOR = '#1f5fbf';
const INSTALLS_COLOR = '#1f5fbf';
const CHECKS_COLOR = '#8a4b08';

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

/** An application's downloads over a period (by day as a chart, by version, platform, arch, channel and customer) and its adoption. */
export function StatisticsPage() {
  const { query } = useLocation();
  const applications = useLoad((signal) => client.listApplications({ pageSize: 100 }, { signal }), []);
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
      ? client.getApplicationStatistics({ applicationId }, { from, to, channel }, { signal })
      : Promise.resolve(undefined),
    [applicationId, from, to, channel],
  );
  const adoption = useLoad(
    (signal) => applicationId
      ? client.getApplicationAdoption({ applicationId }, { from, to, channel }, { signal })
      : Promise.resolve(undefined),
    [applicationId, from, to, channel],
  );
  const days = useMemo(() => (stats.data ? everyDay(from, to, stats.data.downloadsByDay) : []), [stats.data, from, to]);
  const downloadSeries = useMemo(() => [{ label: 'Downloads', color: DOWNLOADS_COLOR, counts: days.map((d) => d.count) }], [days]);
  const [Chart, setChart] = useState<Chart | null>(null);
  const [chartError, setChartError] = useState<unknown>();
  useEffect(() => {
    if ((stats.data || adoption.data) && !Chart) loadChart().then((component) => setChart(() => component), setChartError);
  }, [stats.data, adoption.data, Chart]);

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
            {Chart
              ? <Chart name="downloads-by-day" dates={days.map((d) => d.date)} series={downloadSeries} label={`Downloads by day from ${from} to ${to}: ${stats.data.totalDownloads} in all`} />
              : !chartError && <Loading label="Drawing the chart" />}
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
            <section class="card" aria-labelledby="stats-by-arch">
              <h2 id="stats-by-arch">By arch</h2>
              <CountTable caption="Downloads by arch" heading="Arch" rows={sorted(stats.data.downloadsByArch)} />
            </section>
            <section class="card" aria-labelledby="stats-by-channel">
              <h2 id="stats-by-channel">By channel</h2>
              <CountTable caption="Downloads by channel" heading="Channel" rows={sorted(stats.data.downloadsByChannel)} />
            </section>
            <section class="card" aria-labelledby="stats-top-customers">
              <h2 id="stats-top-customers">Top customers</h2>
              <CountTable caption="Customers with most downloads" heading="Customer" rows={stats.data.topCustomers.map((c) => [c.customerId, c.downloads] as const)} />
            </section>
          </div>
        </>
      )}
      {applicationId && (
        <section class="card" aria-labelledby="stats-adoption">
          <h2 id="stats-adoption">Adoption</h2>
          <ErrorNotice error={adoption.error} onRetry={adoption.reload} />
          {adoption.loading && !adoption.data && <Loading label="Counting update checks" />}
          {adoption.data && <AdoptionFigures adoption={adoption.data} Chart={Chart} chartError={chartError} />}
        </section>
      )}
    </>
  );
}

const sorted = (counts: Record<string, number>) => Object.entries(counts).sort((a, b) => b[1] - a[1]);

function CountTable({ caption, heading, rows, countHeading = 'Downloads', empty = 'No download in this period.' }: {
  caption: string; heading: string; rows: ReadonlyArray<readonly [string, number]>; countHeading?: string; empty?: string;
}) {
  if (rows.length === 0) return <p>{empty}</p>;
  return (
    <ScrollTable label={caption}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead><tr><th scope="col">{heading}</th><th scope="col">{countHeading}</th></tr></thead>
        <tbody>{rows.map(([name, count]) => <tr key={name}><td>{name}</td><td>{count.toLocaleString()}</td></tr>)}</tbody>
      </table>
    </ScrollTable>
  );
}

const plural = (count: number, noun: string) => (count === 1 ? noun : `${noun}s`);
const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`);

/**
 * The period's update checks: active installs and checks per day as a chart; for the last day with
 * checks the installs by running version and those on the latest release or behind it; how fast each
 * release spread.
 */
function AdoptionFigures({ adoption, Chart, chartError }: { adoption: Adoption; Chart: Chart | null; chartError: unknown }) {
  const dates = useMemo(() => adoption.days.map((d) => d.date), [adoption]);
  const series = useMemo(() => [
    { label: 'Active installs', color: INSTALLS_COLOR, counts: adoption.days.map((d) => d.activeInstalls) },
    { label: 'Update checks', color: CHECKS_COLOR, dashed: true, counts: adoption.days.map((d) => d.checks) },
  ], [adoption]);
  const last = [...adoption.days].reverse().find((day) => day.checks > 0);
  const checks = adoption.days.reduce((sum, day) => sum + day.checks, 0);
  return (
    <>
      {last
        ? (
          <p class="stat-figure" data-active-installs>
            {last.activeInstalls.toLocaleString()} <span class="hint">active {plural(last.activeInstalls, 'install')} on {last.date} (UTC): {last.onLatest.toLocaleString()} on
              the latest release ({percent(last.onLatest, last.activeInstalls)}), {last.outdated.toLocaleString()} outdated; {checks.toLocaleString()} update
              {' '}{plural(checks, 'check')} in the period</span>
          </p>
        )
        : <p>No update check in this period.</p>}
      {last && (
        <p class="hint" data-latest-releases>
          {Object.keys(last.latest).length === 0
            ? 'No release offered on that day: no install counts as on the latest release.'
            : `Latest release per channel on ${last.date}: ${Object.entries(last.latest).map(([channel, version]) => `${channel} ${version}`).join(', ')} (published, not yanked).`}
        </p>
      )}
      {last && (Chart
        ? <Chart name="adoption-by-day" dates={dates} series={series} label={`Active installs and update checks by day from ${dates[0]} to ${dates[dates.length - 1]}`} />
        : !chartError && <Loading label="Drawing the chart" />)}
      <div class="grid-2">
        {last && (
          <div>
            <h3>Installs by running version on {last.date}</h3>
            <ScrollTable label="Installs by running version">
              <table>
                <caption class="visually-hidden">Installs by running version</caption>
                <thead><tr><th scope="col">Version</th><th scope="col">Installs</th><th scope="col">Share</th></tr></thead>
                <tbody>
                  {Object.entries(last.byVersion).sort((a, b) => b[1] - a[1]).map(([version, installs]) => (
                    <tr key={version}><td>{version}</td><td>{installs.toLocaleString()}</td><td>{percent(installs, last.activeInstalls)}</td></tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
            <h3>On the latest release or behind it</h3>
            <CountTable caption="Installs on the latest release and behind it" heading="Running" countHeading="Installs"
              rows={[['On the latest release', last.onLatest], ['Outdated', last.outdated]]} />
          </div>
        )}
        <div>
          <h3>How fast releases spread</h3>
          {adoption.releases.length === 0
            ? <p>No published release.</p>
            : (
              <ScrollTable label="Days for each release to reach half and nine tenths of the active installs">
                <table>
                  <caption class="visually-hidden">Days for each release to reach 50% and 90% of the active installs</caption>
                  <thead><tr><th scope="col">Release</th><th scope="col">Published</th><th scope="col">Days to 50%</th><th scope="col">Days to 90%</th></tr></thead>
                  <tbody>
                    {adoption.releases.map((r) => (
                      <tr key={r.version}><td>{r.version}</td><td>{formatDate(r.publishedAt)}</td><td>{r.daysTo50 ?? 'not yet'}</td><td>{r.daysTo90 ?? 'not yet'}</td></tr>
                    ))}
                  </tbody>
                </table>
              </ScrollTable>
            )}
        </div>
      </div>
    </>
  );
}

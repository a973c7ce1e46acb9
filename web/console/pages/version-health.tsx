// A release's update funnel and its rollout plan, on its version page: the funnel per day of offer as
// a chart (uPlot, loaded on demand as the statistics page loads it), the top failure messages, and
// the plan's state with resume and stop.
import 'uplot/dist/uPlot.min.css';
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { client } from '../../common/api';
import { ErrorNotice, GuardedButton, Loading } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useLoad } from '../../common/hooks';
import type { Permission } from '../caller';
import { useAction } from '../use-action';
import type { DailyChartProps } from './daily-chart';

type Chart = FunctionComponent<DailyChartProps>;

let chartModule: Promise<Chart> | undefined;
const loadChart = () => (chartModule ??= import('./daily-chart').then((module) => module.DailyChart));

const OFFERED_COLOR = '#1f5fbf';
const ARRIVED_COLOR = '#1d6b35';
const STUCK_COLOR = '#a3261b';

const rate = (value: number | null) => (value === null ? 'not judged yet' : `${Math.round(value * 1000) / 10}%`);

export function VersionHealth({ applicationId, version, permission, onChanged }: {
  applicationId: string; version: string; permission: Permission; onChanged: () => void;
}) {
  const health = useLoad(
    (signal) => client.getVersionHealth({ applicationId, version }, { signal }),
    [applicationId, version],
  );
  const [Chart, setChart] = useState<Chart | null>(null);
  const [chartError, setChartError] = useState<unknown>();
  useEffect(() => {
    if (health.data && health.data.days.length > 0 && !Chart) loadChart().then((component) => setChart(() => component), setChartError);
  }, [health.data, Chart]);
  const action = useAction();
  const rollout = (step: 'resume' | 'stop') => action.run(async () => {
    await (step === 'resume' ? client.resumeVersionRollout : client.stopVersionRollout)({ applicationId, version });
    health.reload();
    onChanged();
  });

  if (!health.data) {
    return (
      <section class="card" aria-labelledby="health-heading">
        <h2 id="health-heading">Update health</h2>
        {health.error ? <ErrorNotice error={health.error} onRetry={health.reload} /> : <Loading />}
      </section>
    );
  }
  const { figures, days, topFailureMessages, rolloutPlan: plan, arrivalWindowHours } = health.data;
  const guard = { allowed: permission.allowed && !action.busy, reason: permission.reason || 'Saving…' };
  return (
    <section class="card" aria-labelledby="health-heading" data-section="version-health">
      <h2 id="health-heading">Update health</h2>
      <ErrorNotice error={action.error} />
      <p>
        Offered to <strong>{figures.offered}</strong> installs, <strong>{figures.arrived}</strong> arrived, <strong>{figures.stuck}</strong> stuck
        of {figures.matured} offered over {arrivalWindowHours} h ago: success <strong>{rate(figures.successRate)}</strong>;
        {' '}{figures.failureReports} failure report(s).
      </p>
      {days.length === 0
        ? <p class="hint">No install has been offered this release yet (installs count once their checks say which version they run).</p>
        : Chart
          ? <Chart name="update-funnel" dates={days.map((d) => d.date)} label={`Installs offered ${version} per day, and how many arrived or are stuck`} series={[
            { label: 'Offered', color: OFFERED_COLOR, counts: days.map((d) => d.offered) },
            { label: 'Arrived', color: ARRIVED_COLOR, counts: days.map((d) => d.arrived) },
            { label: 'Stuck', color: STUCK_COLOR, dashed: true, counts: days.map((d) => d.stuck) },
          ]} />
          : chartError ? <ErrorNotice error={chartError} /> : <Loading />}
      {topFailureMessages.length > 0 && <>
        <h3>Most reported failures</h3>
        <table>
          <thead><tr><th scope="col">Message</th><th scope="col">Reports</th></tr></thead>
          <tbody>{topFailureMessages.map((m) => <tr key={m.message}><td>{m.message}</td><td>{m.reports}</td></tr>)}</tbody>
        </table>
      </>}
      {plan && <>
        <h3>Rollout plan</h3>
        <p>
          {plan.steps.map((step, i) => <span key={i} class={`badge${i === plan.step ? ' current' : ''}`}>{step.percentage}% after {step.after}</span>)}
          {' '}<span class="badge">{plan.status}</span>
        </p>
        <p class="hint">Halts below {plan.halt.minSuccessRate * 100}% success with at least {plan.halt.minOffered} installs judged, or past {plan.halt.maxFailureReports} failure reports.</p>
        {plan.status === 'halted' && <p>Halted {formatDateTime(plan.rolloutHaltedAt)}: <strong>{plan.haltReason}</strong></p>}
        <div class="page-actions">
          {plan.status === 'halted' && <GuardedButton {...guard} onClick={() => rollout('resume')}>Resume rollout</GuardedButton>}
          {plan.status !== 'stopped' && <GuardedButton {...guard} class="button danger" onClick={() => rollout('stop')}>Stop rollout plan</GuardedButton>}
        </div>
      </>}
    </section>
  );
}

import { figure, Figure } from '../figures';
import { median, sleep } from '../sample-stats';
import type { Seeded } from '../seed';
import type { Service } from '../service';

const SAMPLES = 5;
const POLL_MS = 20;
const TIMEOUT_MS = 30_000;
/** The worker folds once a second; staggering the samples spreads them over that period. */
const STAGGER_MS = 200;

/** Time from a download's answer (a share link's use) until that download shows in the statistics. */
export async function rollupLag(service: Service, seeded: Seeded): Promise<Figure[]> {
  const total = async () =>
    (await service.api.admin<{ totalDownloads: number }>(`/v1/applications/${seeded.applicationId}/stats`)).totalDownloads;
  await waitUntilSettled(total);

  const lags: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    await sleep(i * STAGGER_MS);
    const before = await total();
    // A share link's use: each one is counted, where the seeded customer's repeated download URLs count once.
    await service.api.call(`/v1/downloads/share/${seeded.shareToken}`, { key: seeded.customerKey, expect: [302] });
    const answered = performance.now();
    while ((await total()) <= before) {
      if (performance.now() - answered > TIMEOUT_MS) throw new Error(`a download was not counted within ${TIMEOUT_MS} ms`);
      await sleep(POLL_MS);
    }
    lags.push(performance.now() - answered);
  }
  return [
    figure({
      name: `rollup lag: download answered -> in stats (median of ${SAMPLES})`,
      value: median(lags),
      unit: 'ms',
      target: { on: 'value', op: '<=', limit: 2000 },
      detail: { lagsMs: lags, pollMs: POLL_MS },
    }),
  ];
}

/** The load runs leave a backlog of events; the samples start once the total stops moving. */
async function waitUntilSettled(total: () => Promise<number>): Promise<void> {
  const deadline = Date.now() + 120_000;
  let previous = await total();
  for (;;) {
    await sleep(1_500);
    const current = await total();
    if (current === previous) return;
    if (Date.now() > deadline) throw new Error('download statistics still moving after 120 s');
    previous = current;
  }
}

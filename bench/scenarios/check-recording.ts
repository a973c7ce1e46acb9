import type { Figure } from '../figures';
import { compareLoad, compareSideBySide, LoadTarget, rateAndP99Figures } from '../load';
import type { SeededService } from './http-throughput';

/**
 * Pairs of runs per check: the cost measured is a tenth of a request or less, within the swing of
 * single runs on a shared machine, so this figure takes more pairs than most (alternate.ts).
 */
const PAIRS = 5;

/** A version newer than any seeded: the Tauri check answers 204, what nearly every launch of an app gets. */
const RUNNING_VERSION = '9.0.0';

/**
 * What recording every update check costs the check: Tauri's 204 and electron-updater's channel file
 * at 50 connections on a service recording checks, against a second, identical service started with
 * RECORD_UPDATE_CHECKS=false. Measured twice: in alternating runs, each service alone on the machine
 * (reported), and side by side, both loaded at once (target 0.9): the cost is a tenth of a request
 * or less, and only side by side does a slow spell of the machine hit both alike (load.ts,
 * compareSideBySide). Afterwards the recording service must have counted checks, or the figures
 * measured nothing.
 */
export async function checkRecordingOverhead(off: SeededService, on: SeededService): Promise<Figure[]> {
  const targets = ({ service, seeded }: SeededService): Record<string, LoadTarget> => {
    const feed = `${service.api.baseUrl}/v1/updates/${seeded.applicationId}`;
    const headers = { authorization: `Bearer ${seeded.customerKey}`, 'user-agent': 'bench-update-client' };
    return {
      tauri: { url: `${feed}/tauri/windows/x86_64/${RUNNING_VERSION}`, headers, expectStatus: 204, pid: service.pid },
      electron: { url: `${feed}/electron/latest.yml`, headers, expectStatus: 200, pid: service.pid },
    };
  };
  const plain = targets(off);
  const recorded = targets(on);
  const figures: Figure[] = [];
  for (const [name, check] of [[`GET /v1/updates/:applicationId/tauri/windows/x86_64/${RUNNING_VERSION} (204)`, 'tauri'], ['GET /v1/updates/:applicationId/electron/latest.yml', 'electron']] as const) {
    // The rate's name ends in req/s: the CPU figure is named after it (rateAndP99Figures).
    const names = { rate: `${name} @50c, checks recorded req/s`, p99: `${name} @50c, checks recorded p99` };
    figures.push(...rateAndP99Figures(names, await compareLoad(plain[check], recorded[check], 50, PAIRS), 'not recorded'));
    const sideBySide = { rate: `${name} @50c each, side by side, checks recorded req/s`, p99: `${name} @50c each, side by side, checks recorded p99` };
    figures.push(...rateAndP99Figures(sideBySide, await compareSideBySide(plain[check], recorded[check], 50, PAIRS), 'not recorded', { minRateRatio: 0.9 }));
  }
  await expectRecorded(on);
  return figures;
}

/** The recording service's workers fold its checks within seconds: today's count must be there. */
async function expectRecorded({ service, seeded }: SeededService): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const adoption = await service.api.admin<{ days: { checks: number }[] }>(`/v1/applications/${seeded.applicationId}/adoption`);
    if ((adoption.days[adoption.days.length - 1]?.checks ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error('the recording service counted no update checks');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { MountedRoute, mountedRoutes, routeKey } from '../support/mounted-routes';
import { sendRaw } from '../support/raw-http';
import { ServiceProcess } from '../support/service-process';
import { differences } from './differences';
import type { FuzzCase } from './draft';
import { Fixture, seedFixture } from './fixture';
import { PENDING_DEFECTS, pendingDefectOf } from './pending-defects';
import { RouteFuzzer, routeFuzzers, unmatchedFuzzer } from './routes';
import { FUZZ, seedFor } from './settings';
import { objectsUnder, Snapshot, takeSnapshot } from './snapshot';
import { StoreCommits } from './store-commits';
import { problemsWith } from './verdict';

/** Cleanup after a refused request (a staging object, a partial write) may finish just after its answer. */
const SETTLE_MS = 1_000;
const SETTLE_POLL_MS = 50;

/**
 * Generated malformed requests over real HTTP against the service in a process of its own (gateway
 * and workers, real redis-server, SQLite, local object storage), one property per route the gateway
 * mounts. Each request: an answer within the bound, no 5xx but 503, the error envelope, refused when
 * it carries a defect, the process still answering /healthz; for routes that write, stored data
 * unchanged after every request. After each route: the seeded records unchanged. Known failures are
 * tried first on every run.
 */
/** Per route: time for its runs at a few milliseconds each, with room for a restart or two. */
const ROUTE_TIMEOUT_MS = Math.max(120_000, FUZZ.runs * 200);

describe('gateway under generated malformed requests', function () {
  this.timeout(ROUTE_TIMEOUT_MS);
  const mounted = mountedRoutes();
  let service: ServiceProcess;
  /**
   * The records every route aims at, and how they were seeded. Shared while intact; a route that
   * changed them has failed, and the next route gets records of its own.
   */
  let seeded: { fixture: Fixture; snapshot: Snapshot } | undefined;

  let commits: StoreCommits | undefined;

  before(async () => {
    // Every admin route's requests go out under one root key: at full speed the suite sends more
    // than the admin policy's default per minute, and a 429 would stand in for the refusal a case checks.
    // Likewise the seeded share links, whose standing every case's snapshot reads from one address.
    service = await ServiceProcess.start({ RATE_LIMITS: 'admin=1000000/60,share-link=1000000/60,share-client=1000000/60' });
    commits = StoreCommits.open(service.dataDir);
  });

  after(async () => {
    commits?.close();
    await service?.stop();
  });

  const snapshotOf = (fixture: Fixture) => takeSnapshot(service.http, fixture, service.dataDir);

  const fuzzersFor = async (): Promise<{ fixture: Fixture; fuzzers: RouteFuzzer[] }> => {
    // A route whose requests ended the process has failed already; the next one starts on a live one.
    await service.answersHealth(FUZZ.answerBoundMs);
    if (!seeded) {
      const fixture = await seedFixture(service.http);
      seeded = { fixture, snapshot: await snapshotOf(fixture) };
    }
    return { fixture: seeded.fixture, fuzzers: routeFuzzers(seeded.fixture, service.adminKey, service.metricsToken) };
  };

  /** Every generated request for `fuzzer`, then the seeded records compared with how they were. */
  const fuzz = async (fuzzer: RouteFuzzer, fixture: Fixture) => {
    const before = (seeded as { snapshot: Snapshot }).snapshot;
    const failure = await fuzzRoute(fuzzer, fixture, before).then(() => undefined, (error: unknown) => error);
    const changed = differences(before, await settled(() => snapshotOf(fixture), before));
    if (changed.length > 0) seeded = undefined;
    // The property's own failure names the request; the records' state comes second.
    if (failure) throw failure;
    expect(changed, 'records seeded before the run').to.deep.equal([]);
  };

  it('has a fuzzer for every route in the route table, with its guard, and none for a route the table lacks', async () => {
    const { fuzzers } = await fuzzersFor();
    const described = (routes: MountedRoute[]) => routes.map((r) => `${routeKey(r)} (${r.guard})`).sort();
    expect(described(fuzzers)).to.deep.equal(described(mounted));
  });

  for (const route of mounted) {
    it(`${routeKey(route)}`, async () => {
      const { fixture, fuzzers } = await fuzzersFor();
      const fuzzer = fuzzers.find((candidate) => routeKey(candidate) === routeKey(route));
      if (!fuzzer) throw new Error(`no fuzzer for ${routeKey(route)}`);
      await fuzz(fuzzer, fixture);
    });
  }

  it('paths and methods no route serves', async () => {
    const { fixture, fuzzers } = await fuzzersFor();
    await fuzz(unmatchedFuzzer(fuzzers, service.adminKey), fixture);
  });

  for (const pending of PENDING_DEFECTS) it.skip(`pending defect: ${pending.name}`, () => undefined);

  it('leaves the service running and ready: no request ended the process', async () => {
    expect(service.crashes, 'output of processes that stopped answering').to.deep.equal([]);
    expect((await service.http.get('/readyz', { key: null })).status).to.equal(200);
  });

  async function fuzzRoute(fuzzer: RouteFuzzer, fixture: Fixture, seededSnapshot: Snapshot): Promise<void> {
    const snapshot = () => snapshotOf(fixture);
    let current = seededSnapshot;
    let committed = commits?.version();
    /** Whether the store or the object storage may have changed since `current` was taken. */
    const mayHaveChanged = () => committed === undefined || commits?.version() !== committed
      || differences(current.objects, objectsUnder(path.join(service.dataDir, 'objects'))).length > 0;
    const property = fc.asyncProperty(fuzzer.cases, async (fuzzCase: FuzzCase) => {
      fc.pre(!pendingDefectOf(fuzzCase));
      const outcome = await sendRaw(service.port, fuzzCase.request, FUZZ.answerBoundMs);
      const problems = problemsWith(fuzzCase, outcome, FUZZ.answerBoundMs);
      if (!(await service.answersHealth(FUZZ.answerBoundMs))) {
        problems.push(`the service stopped answering, and was started again; it printed:\n${tail(service.crashes[service.crashes.length - 1])}`);
      }
      if (fuzzer.changesData && mayHaveChanged()) {
        committed = commits?.version();
        const after = await settled(snapshot, current);
        const changed = differences(current, after);
        if (changed.length > 0) problems.push(`stored data changed:\n  ${changed.join('\n  ')}`);
        current = after;
      }
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
    await fc.assert(property, {
      seed: seedFor(`${fuzzer.method} ${fuzzer.path}`),
      numRuns: FUZZ.runs,
      examples: fuzzer.known.filter((known) => !pendingDefectOf(known)).map((known) => [known] as [FuzzCase]),
    });
  }
});

/** A snapshot once it matches `expected`, or after SETTLE_MS the last one taken. */
async function settled(take: () => Promise<Snapshot>, expected: Snapshot): Promise<Snapshot> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const current = await take();
    if (differences(expected, current).length === 0 || Date.now() > deadline) return current;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

function tail(output: string | undefined): string {
  return (output ?? '').split('\n').slice(-30).join('\n');
}

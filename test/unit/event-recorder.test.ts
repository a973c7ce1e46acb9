import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventRecorder } from '../../shared/events/event-recorder';
import { SqliteStore } from '../../shared/store/sqlite/sqlite-store';
import { numberedDownloadEvent } from '../support/records';
import { rejectionOf } from '../support/rejection';

describe('event recorder', () => {
  let dir: string;
  let store: SqliteStore;
  let writes: number[];
  let failNextWrite: boolean;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-recorder-'));
    store = new SqliteStore(path.join(dir, 'store.sqlite'));
    writes = [];
    failNextWrite = false;
    const insertEvents = store.activity.insertEvents.bind(store.activity);
    store.activity.insertEvents = (events) => {
      writes.push(events.length);
      if (failNextWrite) {
        failNextWrite = false;
        return Promise.reject(new Error('disk full'));
      }
      return insertEvents(events);
    };
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async () => (await store.activity.listEvents({ applicationId: 'app_1', limit: 1000 })).map((e) => e.eventId).sort();

  it('writes the events of one turn together and answers each only once it is stored', async () => {
    const recorder = new EventRecorder(store);
    const events = Array.from({ length: 25 }, (_, n) => numberedDownloadEvent(n));
    const answers = events.map(async (event) => {
      await recorder.record(event);
      // Stored by the time its own request may answer.
      expect(await stored()).to.include(event.eventId);
    });
    await Promise.all(answers);
    expect(writes).to.deep.equal([25]);

    await recorder.record(numberedDownloadEvent(100));
    expect(writes).to.deep.equal([25, 1]);
    expect(await stored()).to.have.length(26);
  });

  it('gathers the events of later turns while a write is in flight, and writes them together once it settles', async () => {
    const recorder = new EventRecorder(store);
    const insertEvents = store.activity.insertEvents;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first write waits at the gate, as a slow commit would.
    store.activity.insertEvents = async (events) => {
      const result = insertEvents(events);
      if (writes.length === 1) await gate;
      return result;
    };
    const first = recorder.record(numberedDownloadEvent(1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes, 'the first turn written').to.deep.equal([1]);
    const later: Promise<void>[] = [];
    for (let turn = 0; turn < 3; turn += 1) {
      later.push(recorder.record(numberedDownloadEvent(10 + turn)), recorder.record(numberedDownloadEvent(20 + turn)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(writes, 'nothing more written while the first is in flight').to.deep.equal([1]);
    release();
    await Promise.all([first, ...later]);
    expect(writes).to.deep.equal([1, 6]);
    expect(await stored()).to.have.length(7);
  });

  it('fails every request of a failed write, and the next turn writes again', async () => {
    const recorder = new EventRecorder(store);
    failNextWrite = true;
    const failed = (await Promise.all([recorder.record(numberedDownloadEvent(1)), recorder.record(numberedDownloadEvent(2))].map(rejectionOf))) as Error[];
    expect(failed.map((error) => error.message)).to.deep.equal(['disk full', 'disk full']);
    await recorder.record(numberedDownloadEvent(3));
    expect(await stored()).to.deep.equal([numberedDownloadEvent(3).eventId]);
  });
});

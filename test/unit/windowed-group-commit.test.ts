import { expect } from 'chai';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { WindowedGroupCommit } from '../../shared/events/windowed-group-commit';
import { rejectionOf } from '../support/rejection';

/** A window no test waits out: a group is written by its size or by close(). */
const LONG_MS = 600_000;

describe('windowed group commit', () => {
  let writes: number[][];
  let commits: WindowedGroupCommit<number>[];
  const commit = (maxItems: number, maxDelayMs: number, write = async (items: number[]) => void writes.push(items)) => {
    const made = new WindowedGroupCommit<number>(write, { maxItems, maxDelayMs });
    commits.push(made);
    return made;
  };

  beforeEach(() => {
    writes = [];
    commits = [];
  });
  afterEach(async () => {
    // No window timer outlives its test.
    await Promise.all(commits.map((made) => made.close()));
  });

  it('writes a group as soon as it holds maxItems, items of later turns included', async () => {
    const group = commit(5, LONG_MS);
    const first = [group.add(1), group.add(2)];
    await nextTurn();
    first.push(group.add(3), group.add(4));
    await nextTurn();
    expect(writes, 'four items: still gathering').to.deep.equal([]);
    first.push(group.add(5));
    await Promise.all(first);
    expect(writes).to.deep.equal([[1, 2, 3, 4, 5]]);
    const next = group.add(6);
    expect(next).not.to.equal(first[0]);
    await group.close();
    await next;
    expect(writes).to.deep.equal([[1, 2, 3, 4, 5], [6]]);
  });

  it('writes a group that never fills once its window has passed, and starts the next window with the next item', async () => {
    const group = commit(1_000, 5);
    const stored = [group.add(1), group.add(2)];
    expect(stored[0]).to.equal(stored[1]);
    await Promise.all(stored);
    expect(writes).to.deep.equal([[1, 2]]);
    await group.add(3);
    expect(writes).to.deep.equal([[1, 2], [3]]);
  });

  it('writes what is gathering on close and waits for the writes in flight; an item added after close is written at once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const finished: number[][] = [];
    const group = commit(2, LONG_MS, async (items) => {
      writes.push(items);
      if (writes.length === 1) await gate;
      finished.push(items);
    });
    void group.add(1);
    void group.add(2);
    void group.add(3);
    expect(writes, 'the full group is being written').to.deep.equal([[1, 2]]);
    let closed = false;
    const closing = group.close().then(() => {
      closed = true;
    });
    expect(writes, 'the partial group written on close').to.deep.equal([[1, 2], [3]]);
    await nextTurn();
    expect(closed, 'close waits for the write in flight').to.equal(false);
    release();
    await closing;
    expect(finished).to.have.deep.members([[1, 2], [3]]);
    await group.add(4);
    expect(writes[writes.length - 1]).to.deep.equal([4]);
  });

  it("fails every item of a failed write, and writes the next group", async () => {
    let fail = true;
    const group = commit(2, LONG_MS, async (items) => {
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      writes.push(items);
    });
    const failed = await Promise.all([group.add(1), group.add(2)].map(rejectionOf));
    expect(failed.map((error) => (error as Error).message)).to.deep.equal(['disk full', 'disk full']);
    await Promise.all([group.add(3), group.add(4)]);
    expect(writes).to.deep.equal([[3, 4]]);
  });

  it('loses and repeats nothing: items added over many turns are written once each, in order', async () => {
    const group = commit(64, 2);
    const stored: Promise<void>[] = [];
    for (let item = 0; item < 2_000; item += 1) {
      stored.push(group.add(item));
      if (item % 7 === 0) await nextTurn();
    }
    await group.close();
    await Promise.all(stored);
    expect(writes.flat()).to.deep.equal(Array.from({ length: 2_000 }, (_, item) => item));
    for (const written of writes) expect(written.length).to.be.within(1, 64);
  });
});

import { expect } from 'chai';
import { guardPort } from '../../shared/store/outage-guard';
import { rejectionOf } from '../support/rejection';

class Outage extends Error {}

/** A port as the adapters' concern modules are: a class whose methods read its own fields. */
class Counter {
  private count = 0;

  async next(): Promise<number> {
    this.count += 1;
    return this.count;
  }

  async fail(message: string): Promise<never> {
    throw new Error(message);
  }

  failAtOnce(): Promise<never> {
    throw new Error('thrown before any promise');
  }
}

/** A port with a method that opens a gathering (as AdoptionStore.openCheckWindow): answered at once, written later. */
class Windows {
  readonly written: string[][] = [];

  async count(): Promise<number> {
    return this.written.length;
  }

  open(capacity: number): { push(item: string): void; write(): Promise<void> } {
    if (capacity < 1) throw new RangeError('no room');
    const items: string[] = [];
    return {
      push: (item) => items.push(item),
      write: async () => {
        if (items.includes('fail')) throw new Error('database gone');
        this.written.push(items);
      },
    };
  }
}

const translate = (error: unknown) => new Outage((error as Error).message);

describe('guardPort', () => {
  it("answers as the port's method does, with the port as `this`", async () => {
    const port = guardPort(new Counter(), translate);
    expect(await port.next()).to.equal(1);
    expect(await port.next()).to.equal(2);
  });

  it('replaces a rejection by its translation', async () => {
    const error = await rejectionOf(guardPort(new Counter(), translate).fail('database gone'));
    expect(error).to.be.instanceOf(Outage).and.to.include({ message: 'database gone' });
  });

  it('rejects with the translation of a failure thrown before the method returned a promise', async () => {
    const port = guardPort(new Counter(), translate);
    let answer: Promise<unknown> | undefined;
    expect(() => {
      answer = port.failAtOnce();
    }).not.to.throw();
    expect(await rejectionOf(answer as Promise<unknown>)).to.be.instanceOf(Outage);
  });

  it('wraps each method once, when the port is guarded, not on every call', () => {
    const port = guardPort(new Counter(), translate);
    expect(port.next).to.equal(port.next);
    expect(Object.keys(port)).to.have.members(['next', 'fail', 'failAtOnce']);
  });

  it('answers a method named as opening a gathering at once, a failure thrown translated and thrown, its write translated as a method\'s', async () => {
    const windows = new Windows();
    const port = guardPort(windows, translate, ['open']);
    expect(() => port.open(0)).to.throw(Outage, 'no room');
    const window = port.open(2);
    expect(window).not.to.be.instanceOf(Promise);
    window.push('a');
    await window.write();
    expect(windows.written).to.deep.equal([['a']]);
    const failing = port.open(1);
    failing.push('fail');
    expect(await rejectionOf(failing.write())).to.be.instanceOf(Outage).and.to.include({ message: 'database gone' });
    expect(await port.count()).to.equal(1);
  });
});

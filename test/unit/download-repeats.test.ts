import { expect } from 'chai';
import { DownloadRepeats } from '../../shared/events/download-repeats';
import { DOWNLOAD_REPEAT_WINDOW_MS } from '../../shared/policy';
import { rejectionOf } from '../support/rejection';

describe('download repeats', () => {
  let now: number;
  let writes: string[];
  const clock = () => now;
  /** What `once` stores: one entry per write it asks for. */
  const writer = (label: string, outcome: 'stored' | 'failed' = 'stored') => () => {
    writes.push(label);
    return outcome === 'stored' ? Promise.resolve() : Promise.reject(new Error('store unavailable'));
  };

  beforeEach(() => {
    now = 1_000_000;
    writes = [];
  });

  it('counts one customer\'s downloads of one file once per window from the one counted', async () => {
    const repeats = new DownloadRepeats({ now: clock });
    await repeats.once('cus_1', 'fil_1', writer('first'));
    now += DOWNLOAD_REPEAT_WINDOW_MS - 1;
    await repeats.once('cus_1', 'fil_1', writer('resumed'));
    expect(writes).to.deep.equal(['first']);
    now += 1;
    await repeats.once('cus_1', 'fil_1', writer('a new download'));
    expect(writes).to.deep.equal(['first', 'a new download']);
  });

  it('keeps customers and files apart', async () => {
    const repeats = new DownloadRepeats({ now: clock });
    for (const [customer, file] of [['cus_1', 'fil_1'], ['cus_2', 'fil_1'], ['cus_1', 'fil_2'], ['cus_1', 'fil_1']]) {
      await repeats.once(customer, file, writer(`${customer} ${file}`));
    }
    expect(writes).to.deep.equal(['cus_1 fil_1', 'cus_2 fil_1', 'cus_1 fil_2']);
  });

  it('answers a repeat with the first write, failing with it; a failed write counts nothing', async () => {
    const repeats = new DownloadRepeats({ now: clock });
    const first = repeats.once('cus_1', 'fil_1', writer('first', 'failed'));
    const repeat = repeats.once('cus_1', 'fil_1', writer('repeat'));
    expect(((await rejectionOf(first)) as Error).message).to.equal('store unavailable');
    expect(((await rejectionOf(repeat)) as Error).message).to.equal('store unavailable');
    await repeats.once('cus_1', 'fil_1', writer('retried'));
    expect(writes).to.deep.equal(['first', 'retried']);
  });

  it('remembers at most maxTracked pairs, forgetting the oldest, which then counts again', async () => {
    const repeats = new DownloadRepeats({ now: clock, maxTracked: 2 });
    for (const file of ['fil_1', 'fil_2', 'fil_3']) {
      await repeats.once('cus_1', file, writer(file));
      now += 1;
    }
    await repeats.once('cus_1', 'fil_3', writer('fil_3 again'));
    await repeats.once('cus_1', 'fil_1', writer('fil_1 again'));
    expect(writes).to.deep.equal(['fil_1', 'fil_2', 'fil_3', 'fil_1 again']);
  });
});

import { expect } from 'chai';
import { JobName, JOBS, QUEUE_NAMES, RECURRING_JOBS, START_UP_JOBS } from '../../shared/queues/jobs';

describe('job table', () => {
  it('puts every job on a known queue', () => {
    for (const name of Object.keys(JOBS) as JobName[]) expect(QUEUE_NAMES, name).to.include(JOBS[name].queue);
  });

  it('gives a verification the upload id as job id, so completing twice queues one', () => {
    expect(JOBS['verify-upload'].options?.({ uploadId: 'upl_1' })).to.include({ jobId: 'upl_1', attempts: 8 });
  });

  it('delays a share-link expiry until the link expires, never below zero', () => {
    const options = JOBS['expire-share-link'].options;
    const later = options?.({ tokenHash: 'abc', expiresAt: Date.now() + 60_000 });
    expect(later?.jobId).to.equal('share-abc');
    expect(later?.delay).to.be.within(59_000, 60_000);
    expect(options?.({ tokenHash: 'abc', expiresAt: Date.now() - 5_000 }).delay).to.equal(0);
  });

  it('gives each round of a webhook delivery its own job id, with the delivery schedule', () => {
    const options = JOBS['deliver-webhook'].options?.({ deliveryId: 'msg_1', round: 0, retryBaseMs: 50 });
    expect(options).to.deep.include({ jobId: 'msg_1-0', attempts: 14, backoff: { type: 'exponential', delay: 50, jitter: 0.2 } });
    expect(JOBS['dispatch-webhook-event'].options?.({ eventId: 'evt_1', type: 'customer.created', occurredAt: '', data: {} }))
      .to.include({ jobId: 'evt_1' });
  });

  it('schedules exactly the recurring jobs', () => {
    expect(RECURRING_JOBS).to.deep.equal([
      { name: 'expire-upload-sessions', everyMs: 60_000 },
      { name: 'purge-share-links', everyMs: 3_600_000 },
      { name: 'rollup-events', everyMs: 1_000 },
      { name: 'rollup-update-checks', everyMs: 5_000 },
      { name: 'fold-update-funnel', everyMs: 5_000 },
      { name: 'sweep-rollout-plans', everyMs: 5_000 },
      { name: 'purge-check-events', everyMs: 3_600_000 },
      { name: 'purge-update-reports', everyMs: 3_600_000 },
      { name: 'purge-webhook-deliveries', everyMs: 3_600_000 },
      { name: 'relay-webhook-outbox', everyMs: 5_000 },
      { name: 'resign-tuf-metadata', everyMs: 600_000 },
    ]);
  });

  it('adds the SHA-512 backfill at every worker start, one run at a time, not kept once it ends', () => {
    expect(START_UP_JOBS).to.deep.include({ name: 'backfill-file-digests', data: {} });
    expect(JOBS['backfill-file-digests'].options?.({})).to.include({ jobId: 'backfill-file-digests', removeOnComplete: true, removeOnFail: true });
  });

  it('re-signs TUF metadata at every worker start too, one run at a time', () => {
    expect(START_UP_JOBS).to.deep.equal([{ name: 'backfill-file-digests', data: {} }, { name: 'resign-tuf-metadata', data: {} }]);
    expect(JOBS['resign-tuf-metadata'].options?.({})).to.include({ jobId: 'resign-tuf-metadata', removeOnComplete: true, removeOnFail: true });
  });
});

import type { DistributionEvent } from '../../shared/store/models';

/** A download event with plausible fields, any of them overridden. */
export function downloadEvent(eventId: string, overrides: Partial<DistributionEvent> = {}): DistributionEvent {
  return {
    eventId,
    type: 'download',
    applicationId: 'app_1',
    version: '1.0.0',
    fileId: 'file_1',
    customerId: 'cust_1',
    clientIp: '203.0.113.7',
    userAgent: 'curl/8.5.0',
    timestamp: new Date(),
    ...overrides,
  };
}

/** The n-th of a numbered series of download events, ids sorting in order. */
export const numberedDownloadEvent = (n: number): DistributionEvent => downloadEvent(`evt_${String(n).padStart(8, '0')}`);

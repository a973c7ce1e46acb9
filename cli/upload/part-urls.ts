import { MULTIPART_PART_URLS_PER_REQUEST } from '../../shared/policy';
import type { AnswerOf, Client } from '../../shared/contract/client';

/** A URL this close to its expiry is not used for a new attempt: a part may take minutes to send. */
const URL_EXPIRY_MARGIN_MS = 5 * 60_000;

/** One pre-signed part URL, as the service answers it. */
type SignedPart = AnswerOf<'createMultipartPartUrls'>['parts'][number];

/**
 * Pre-signed part URLs, asked for as parts are about to be sent, up to 100 at a time: those of the
 * part wanted and of the parts that follow it in `order`. They live an hour, so a long upload
 * asks again as it goes; a failed attempt asks for a fresh URL of its own part.
 */
export class PartUrls {
  private readonly known = new Map<number, { part: SignedPart; expiresAt: number }>();
  private readonly pending = new Map<number, Promise<void>>();

  constructor(
    private readonly client: Client,
    private readonly uploadId: string,
    private readonly order: readonly number[],
  ) {}

  async get(partNumber: number, fresh = false): Promise<SignedPart> {
    const entry = this.known.get(partNumber);
    if (!fresh && entry && entry.expiresAt - URL_EXPIRY_MARGIN_MS > Date.now()) return entry.part;
    this.known.delete(partNumber);
    await (this.pending.get(partNumber) ?? this.fetchFrom(partNumber, fresh));
    const fetched = this.known.get(partNumber);
    if (!fetched) throw new Error(`the service signed no URL for part ${partNumber}`);
    return fetched.part;
  }

  private fetchFrom(partNumber: number, single: boolean): Promise<void> {
    const batch = [partNumber];
    if (!single) {
      for (const next of this.order.slice(this.order.indexOf(partNumber) + 1)) {
        if (batch.length >= MULTIPART_PART_URLS_PER_REQUEST) break;
        if (!this.known.has(next) && !this.pending.has(next)) batch.push(next);
      }
    }
    const request = this.client.createMultipartPartUrls({ uploadId: this.uploadId }, { partNumbers: batch })
      .then((data) => {
        const expiresAt = Date.parse(data.expiresAt);
        for (const part of data.parts) this.known.set(part.partNumber, { part, expiresAt });
      })
      .finally(() => {
        for (const number of batch) this.pending.delete(number);
      });
    for (const number of batch) this.pending.set(number, request);
    return request;
  }
}

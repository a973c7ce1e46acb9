// One file sent from the browser with the service's multipart protocol: open the upload (or find the
// one this browser started earlier for the same file), ask the service which parts it already holds,
// PUT the others a few at a time to their pre-signed URLs (the service itself on the embedded store,
// the bucket on S3), complete, and follow the verification until the file is published or refused.
import type { Arch, Platform } from '../../../shared/releases/platforms';
import type { FileType } from '../../../shared/releases/file-types';
import type { uploadSessionResponse } from '../../../shared/contract/uploads';
import {
  BROWSER_UPLOAD_PARALLEL_PARTS,
  BROWSER_UPLOAD_PART_ATTEMPTS,
  BROWSER_UPLOAD_PART_URLS_PER_REQUEST,
  BROWSER_UPLOAD_RETRY_FIRST_DELAY_MS,
  BROWSER_UPLOAD_RETRY_MAX_DELAY_MS,
  BROWSER_UPLOAD_VERIFY_POLL_MS,
} from '../../../shared/policy';
import { partLayout, partSizeOf, type PartLayout } from '../../../shared/uploads/multipart-layout';
import { ApiError, client, newIdempotencyKey, type Wire } from '../../common/api';
import { uploadMemory } from './upload-memory';

export type UploadSession = Wire<typeof uploadSessionResponse>;

export interface UploadTarget {
  applicationId: string;
  version: string;
  platform: Platform;
  arch: Arch;
  fileType: FileType;
  /** What the upload creates its version as, when the version does not exist yet. */
  channel?: string;
  status?: 'draft' | 'published';
}

export type UploadPhase = 'ready' | 'checking' | 'uploading' | 'paused' | 'offline' | 'completing' | 'verifying' | 'completed' | 'failed' | 'cancelled';

export interface UploadProgress {
  phase: UploadPhase;
  uploadId: string | null;
  sentBytes: number;
  totalBytes: number;
  bytesPerSecond: number;
  secondsLeft: number;
  partCount: number;
  partsDone: number;
  /** Parts the service already held when this page took the upload up (after a reload or a pause). */
  partsSkipped: number;
  /** Whether an upload this browser started earlier for the same file was found and continued. */
  resumed: boolean;
  /** Why the service refused the file (its verification failed), in its words. */
  failureReason: string | null;
  error: unknown;
  session: UploadSession | null;
}

const URL_HEADROOM_MS = 30_000;
const RATE_WINDOW_MS = 5_000;

/** A part PUT that failed in a way another try may fix (the network, the service busy, an expired URL). */
class PartFailure extends Error {
  constructor(message: string, readonly retryable: boolean, readonly urlExpired = false, readonly network = false) {
    super(message);
  }
}

/** Stopped by pause or cancel: not an error to show. */
class Stopped extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class BrowserUpload {
  private state: UploadProgress;
  private layout: PartLayout | null = null;
  private readonly done = new Set<number>();
  private readonly inFlight = new Map<number, XMLHttpRequest>();
  private readonly loaded = new Map<number, number>();
  private readonly urls = new Map<number, { url: string; expiresAt: number }>();
  private urlRequest: Promise<void> | null = null;
  /** Bumped by pause and cancel: a run that sees another number stops. */
  private run = 0;
  private samples: Array<{ at: number; bytes: number }> = [];
  private notifyTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly file: File, readonly target: UploadTarget, private readonly onChange: (progress: UploadProgress) => void) {
    this.state = {
      phase: 'ready', uploadId: null, sentBytes: 0, totalBytes: file.size, bytesPerSecond: 0, secondsLeft: Infinity,
      partCount: 0, partsDone: 0, partsSkipped: 0, resumed: false, failureReason: null, error: undefined, session: null,
    };
  }

  get progress(): UploadProgress {
    return this.state;
  }

  /** Starts, or takes up again after a pause or a lost connection. */
  async start(): Promise<void> {
    const run = ++this.run;
    this.update({ phase: 'checking', error: undefined });
    try {
      if (this.state.uploadId === null) await this.openOrFind();
      else await this.askServiceForParts();
      this.check(run);
      if (this.state.phase === 'checking') {
        this.update({ phase: 'uploading' });
        await this.sendMissingParts(run);
        this.check(run);
        this.update({ phase: 'completing' });
        const session = await client.completeMultipartUpload({ uploadId: this.uploadId });
        this.check(run);
        this.follow(session);
      }
      await this.followVerification(run);
    } catch (error) {
      if (error instanceof Stopped || run !== this.run) return;
      if ((error instanceof PartFailure && error.network) || (error instanceof ApiError && error.status === 0)) {
        this.waitForConnection(run);
        return;
      }
      this.update({ phase: 'failed', error });
    }
  }

  pause(): void {
    if (!['checking', 'uploading', 'offline'].includes(this.state.phase)) return;
    this.stopSending();
    this.update({ phase: 'paused' });
  }

  /** Aborts the upload at the service (its bytes are discarded) and forgets it here. */
  async cancel(): Promise<void> {
    this.stopSending();
    const uploadId = this.state.uploadId;
    this.update({ phase: 'cancelled' });
    this.forget();
    if (uploadId === null) return;
    try {
      await client.abortUpload({ uploadId });
    } catch (error) {
      // Already finished or gone: nothing left to discard. Anything else is shown.
      if (!(error instanceof ApiError && (error.status === 404 || error.status === 409 || error.status === 410))) this.update({ error });
    }
  }

  private get uploadId(): string {
    if (this.state.uploadId === null) throw new Error('the upload is not open');
    return this.state.uploadId;
  }

  private check(run: number): void {
    if (run !== this.run) throw new Stopped();
  }

  private stopSending(): void {
    this.run += 1;
    for (const request of this.inFlight.values()) request.abort();
    this.inFlight.clear();
    this.loaded.clear();
    this.samples = [];
  }

  private forget(): void {
    uploadMemory.forget(this.target.applicationId, this.target.version, this.file.name);
  }

  /** Continues the upload this browser started for the same file when the service still takes its parts, or opens one. */
  private async openOrFind(): Promise<void> {
    const remembered = uploadMemory.find(this.target.applicationId, this.target.version, this.file);
    if (remembered) {
      this.update({ uploadId: remembered.uploadId, resumed: true });
      try {
        await this.askServiceForParts();
        const ended = this.state.session?.status;
        if (ended !== 'expired' && ended !== 'aborted') return;
      } catch (error) {
        if (!(error instanceof ApiError && (error.status === 404 || error.status === 410))) throw error;
      }
      // Expired, aborted or unknown: start afresh.
      this.forget();
      this.done.clear();
      this.update({ uploadId: null, resumed: false, partsSkipped: 0, phase: 'checking', failureReason: null });
    }
    const opened = await client.createMultipartUpload({
      applicationId: this.target.applicationId,
      version: this.target.version,
      fileName: this.file.name,
      fileSize: this.file.size,
      platform: this.target.platform,
      arch: this.target.arch,
      fileType: this.target.fileType,
      ...(this.file.type ? { contentType: this.file.type } : {}),
      ...(this.target.channel ? { channel: this.target.channel } : {}),
      ...(this.target.status ? { status: this.target.status } : {}),
    }, { idempotencyKey: newIdempotencyKey() });
    this.layout = partLayout(opened.fileSize, opened.partSize);
    uploadMemory.remember({
      uploadId: opened.uploadId, applicationId: this.target.applicationId, version: this.target.version,
      fileName: this.file.name, fileSize: this.file.size, lastModified: this.file.lastModified, startedAt: new Date().toISOString(),
    });
    this.update({ uploadId: opened.uploadId, partCount: this.layout.partCount, partsDone: 0 });
  }

  /** The service's word on the upload: which parts it holds (never this page's memory alone), or how it ended. */
  private async askServiceForParts(): Promise<void> {
    const session = await client.getUpload({ uploadId: this.uploadId });
    this.follow(session);
    if (session.status !== 'issued') return;
    if (!session.multipart || session.fileSize !== this.file.size) throw new Error('this upload was not started from this file');
    this.layout = partLayout(session.fileSize, session.multipart.partSize);
    const layout = this.layout;
    this.done.clear();
    for (const part of session.multipart.parts ?? []) {
      if (part.size === partSizeOf(layout, part.partNumber)) this.done.add(part.partNumber);
    }
    this.update({ partCount: layout.partCount, partsDone: this.done.size, partsSkipped: this.done.size, sentBytes: this.sentBytes() });
  }

  /** Takes the session's state as the upload's: verifying, completed, failed, expired or aborted. */
  private follow(session: UploadSession): void {
    this.update({ session });
    switch (session.status) {
      case 'issued': return;
      case 'verifying': this.update({ phase: 'verifying', sentBytes: this.file.size }); return;
      case 'completed': this.forget(); this.update({ phase: 'completed', sentBytes: this.file.size }); return;
      case 'failed': this.forget(); this.update({ phase: 'failed', failureReason: session.failureReason ?? 'the service refused the file' }); return;
      default: this.update({ phase: 'failed', failureReason: `the upload was ${session.status}` });
    }
  }

  private async followVerification(run: number): Promise<void> {
    while (this.state.phase === 'verifying') {
      await sleep(BROWSER_UPLOAD_VERIFY_POLL_MS);
      this.check(run);
      this.follow(await client.getUpload({ uploadId: this.uploadId }));
    }
  }

  private async sendMissingParts(run: number): Promise<void> {
    const layout = this.layout as PartLayout;
    const queue = Array.from({ length: layout.partCount }, (_, i) => i + 1).filter((part) => !this.done.has(part));
    const worker = async () => {
      try {
        for (let part = queue.shift(); part !== undefined; part = queue.shift()) {
          await this.sendPart(run, part);
          this.check(run);
        }
      } catch (error) {
        queue.length = 0; // the other workers stop after their current part
        throw error;
      }
    };
    const workers = Array.from({ length: Math.min(BROWSER_UPLOAD_PARALLEL_PARTS, queue.length) }, worker);
    const results = await Promise.allSettled(workers);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** One part, tried again with a growing delay when the network or the service fails, with a fresh URL when its URL expired. */
  private async sendPart(run: number, partNumber: number): Promise<void> {
    const layout = this.layout as PartLayout;
    const start = (partNumber - 1) * layout.partSize;
    const body = this.file.slice(start, start + partSizeOf(layout, partNumber));
    let delay = BROWSER_UPLOAD_RETRY_FIRST_DELAY_MS;
    for (let attempt = 1; ; attempt += 1) {
      this.check(run);
      try {
        const url = await this.partUrl(partNumber);
        this.check(run);
        await this.put(partNumber, url, body);
        this.done.add(partNumber);
        this.loaded.delete(partNumber);
        this.update({ partsDone: this.done.size });
        this.measure();
        return;
      } catch (error) {
        this.loaded.delete(partNumber);
        if (!(error instanceof PartFailure) || !error.retryable || attempt >= BROWSER_UPLOAD_PART_ATTEMPTS) throw error;
        if (error.urlExpired) this.urls.delete(partNumber);
        await sleep(delay);
        delay = Math.min(delay * 2, BROWSER_UPLOAD_RETRY_MAX_DELAY_MS);
      }
    }
  }

  /** A part's URL, asking for those of the next parts too, so the service is asked once per few parts. */
  private async partUrl(partNumber: number): Promise<string> {
    for (;;) {
      const known = this.urls.get(partNumber);
      if (known && known.expiresAt - URL_HEADROOM_MS > Date.now()) return known.url;
      if (!this.urlRequest) {
        const layout = this.layout as PartLayout;
        const wanted: number[] = [partNumber];
        for (let part = 1; part <= layout.partCount && wanted.length < BROWSER_UPLOAD_PART_URLS_PER_REQUEST; part += 1) {
          if (part !== partNumber && !this.done.has(part) && !this.inFlight.has(part) && !this.urls.has(part)) wanted.push(part);
        }
        this.urlRequest = client.createMultipartPartUrls({ uploadId: this.uploadId }, { partNumbers: wanted })
          .then((answer) => {
            const expiresAt = Date.parse(answer.expiresAt);
            for (const part of answer.parts) this.urls.set(part.partNumber, { url: part.uploadUrl, expiresAt });
          })
          .finally(() => { this.urlRequest = null; });
      }
      await this.urlRequest;
    }
  }

  /** PUTs with XMLHttpRequest, the one browser API that reports an upload's progress. */
  private put(partNumber: number, url: string, body: Blob): Promise<void> {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      this.inFlight.set(partNumber, request);
      request.open('PUT', url);
      request.upload.onprogress = (event) => {
        this.loaded.set(partNumber, event.loaded);
        this.measure();
      };
      request.onload = () => {
        this.inFlight.delete(partNumber);
        if (request.status >= 200 && request.status < 300) resolve();
        else if (request.status === 403) reject(new PartFailure('the part URL expired', true, true));
        else if (request.status === 429 || request.status >= 500) reject(new PartFailure(`the storage answered ${request.status}`, true));
        else reject(new PartFailure(`the storage refused part ${partNumber} (${request.status})`, false));
      };
      request.onerror = () => {
        this.inFlight.delete(partNumber);
        reject(new PartFailure('the connection failed', true, false, true));
      };
      request.onabort = () => {
        this.inFlight.delete(partNumber);
        reject(new Stopped());
      };
      request.send(body);
    });
  }

  /** Pauses until the browser is online again, then takes the upload up where the service has it. */
  private waitForConnection(run: number): void {
    this.stopSending();
    this.update({ phase: 'offline' });
    const retry = () => {
      window.removeEventListener('online', retry);
      clearTimeout(timer);
      if (this.run === run + 1 && this.state.phase === 'offline') void this.start();
    };
    // `online` fires when the network comes back; the timer covers a service that was down while the network was not.
    const timer = setTimeout(retry, BROWSER_UPLOAD_RETRY_MAX_DELAY_MS);
    window.addEventListener('online', retry);
  }

  private sentBytes(): number {
    if (!this.layout) return 0;
    const layout = this.layout;
    let bytes = 0;
    for (const part of this.done) bytes += partSizeOf(layout, part);
    for (const [part, loaded] of this.loaded) if (!this.done.has(part)) bytes += loaded;
    return bytes;
  }

  /** Rate over the last few seconds and the time left at that rate. */
  private measure(): void {
    const now = performance.now();
    const sentBytes = this.sentBytes();
    this.samples.push({ at: now, bytes: sentBytes });
    while (this.samples.length > 2 && now - this.samples[0].at > RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const seconds = (now - first.at) / 1000;
    const bytesPerSecond = seconds > 0.2 ? (sentBytes - first.bytes) / seconds : this.state.bytesPerSecond;
    const secondsLeft = bytesPerSecond > 0 ? (this.file.size - sentBytes) / bytesPerSecond : Infinity;
    this.update({ sentBytes, bytesPerSecond, secondsLeft });
  }

  /** Changes the state; the page hears of it at most every 200 ms while bytes flow, at once otherwise. */
  private update(change: Partial<UploadProgress>): void {
    this.state = { ...this.state, ...change };
    const onlyBytes = Object.keys(change).every((key) => key === 'sentBytes' || key === 'bytesPerSecond' || key === 'secondsLeft');
    if (!onlyBytes) {
      if (this.notifyTimer) clearTimeout(this.notifyTimer);
      this.notifyTimer = null;
      this.onChange(this.state);
      return;
    }
    if (this.notifyTimer) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      this.onChange(this.state);
    }, 200);
  }
}

import { SingleBar } from 'cli-progress';
import { formatBytes } from '../../shared/byte-sizes';
import { formatDuration } from './format';
import { Output } from './output';

/** How often progress is told when nothing asks for it sooner, per kind of output. */
export const JSON_PROGRESS_INTERVAL_MS = 500;
export const PLAIN_PROGRESS_INTERVAL_MS = 5_000;
/** The transfer rate is the average over this window, so the ETA follows changes within seconds. */
const RATE_WINDOW_MS = 10_000;

export interface ProgressSnapshot {
  bytesDone: number;
  bytesTotal: number;
  /** Bytes per second over the last seconds of this run (bytes skipped on resume never count). */
  rate: number;
  /** Seconds left at that rate; null while no rate is known. */
  etaSeconds: number | null;
}

/**
 * Bytes of a transfer as they move: a bar with bytes, rate and ETA on a terminal, a plain line every
 * few seconds otherwise, `progress` events with --json. `extra` fields go into the events.
 */
export class TransferProgress {
  private bytesDone = 0;
  private readonly samples: { at: number; bytes: number }[] = [];
  private lastTold = 0;
  private bar: SingleBar | undefined;

  constructor(
    private readonly output: Output,
    private readonly bytesTotal: number,
    private readonly label: string,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {}

  start(bytesAlreadyDone: number): void {
    this.bytesDone = bytesAlreadyDone;
    this.samples.push({ at: Date.now(), bytes: bytesAlreadyDone });
    if (!this.output.json && this.stderr.isTTY) {
      this.bar = new SingleBar({
        format: `${this.label} {bar} {percentage}% | {doneText} / {totalText} | {rateText} | ETA {etaText}`,
        hideCursor: true,
        stream: this.stderr,
        etaBuffer: 50,
      });
      this.bar.start(this.bytesTotal, bytesAlreadyDone, this.payload());
    }
  }

  /** `delta` bytes more (negative when an attempt failed and its bytes will be sent again). */
  add(delta: number, extra: Record<string, unknown> = {}): void {
    this.bytesDone += delta;
    const now = Date.now();
    this.samples.push({ at: now, bytes: this.bytesDone });
    while (this.samples.length > 2 && this.samples[0].at < now - RATE_WINDOW_MS) this.samples.shift();
    if (this.bar) {
      this.bar.update(this.bytesDone, this.payload());
      return;
    }
    if (now - this.lastTold < (this.output.json ? JSON_PROGRESS_INTERVAL_MS : PLAIN_PROGRESS_INTERVAL_MS)) return;
    this.tell(extra);
  }

  /** A step done (an upload's part): told at once with --json, otherwise as any progress. */
  milestone(extra: Record<string, unknown>): void {
    if (this.output.json) this.tell(extra);
    else this.add(0, extra);
  }

  stop(extra: Record<string, unknown> = {}): void {
    if (this.bar) {
      this.bar.update(this.bytesDone, this.payload());
      this.bar.stop();
      this.bar = undefined;
      return;
    }
    this.tell(extra);
  }

  snapshot(): ProgressSnapshot {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const seconds = (last.at - first.at) / 1000;
    const rate = seconds > 0 ? Math.max(0, (last.bytes - first.bytes) / seconds) : 0;
    return {
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      rate: Math.round(rate),
      etaSeconds: rate > 0 ? Math.round((this.bytesTotal - this.bytesDone) / rate) : null,
    };
  }

  private tell(extra: Record<string, unknown>): void {
    this.lastTold = Date.now();
    const snapshot = this.snapshot();
    if (this.output.json) {
      this.output.event('progress', { ...snapshot, ...extra });
      return;
    }
    const { doneText, totalText, rateText, etaText } = this.payload();
    const percent = this.bytesTotal > 0 ? Math.floor((snapshot.bytesDone / this.bytesTotal) * 100) : 100;
    this.output.note(`${this.label} ${doneText} of ${totalText} (${percent}%), ${rateText}, ETA ${etaText}`);
  }

  private payload() {
    const { bytesDone, rate, etaSeconds } = this.snapshot();
    return {
      doneText: formatBytes(bytesDone),
      totalText: formatBytes(this.bytesTotal),
      rateText: `${formatBytes(rate)}/s`,
      etaText: etaSeconds === null ? '?' : formatDuration(etaSeconds),
    };
  }
}

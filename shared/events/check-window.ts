import type { Arch, Platform } from '../releases/platforms';
import type { CheckEvent, UpdateClientFamily } from '../store/models';

/** A check's fields whose values repeat from check to check, kept as an index into `values`. */
const CODED_FIELDS = 8;

/**
 * The update checks of one write window (up to CHECK_WRITE_GROUP_MAX_ITEMS, held up to
 * CHECK_WRITE_GROUP_MAX_DELAY_MS), kept as codes and numbers until the window is written. An array of
 * check events kept every check's object, its Date and its strings alive across the young-generation
 * collections of the window, each copying them and then promoting them to the old generation: under
 * load that cost the answering event loop more than recording the checks (bench/README.md). Here a
 * check leaves its event id, its install hash and install id (strings the hasher and the request
 * already made) and numbers; the values that repeat are kept once.
 */
export class CheckWindow {
  private readonly values: (string | null)[] = [];
  private readonly indices = new Map<string | null, number>();
  private readonly codes: number[] = [];
  private readonly eventIds: string[] = [];
  private readonly installHashes: string[] = [];
  private readonly installIds: (string | null)[] = [];
  private readonly timestamps: number[] = [];

  get length(): number {
    return this.timestamps.length;
  }

  push(check: CheckEvent): void {
    this.codes.push(
      this.code(check.applicationId), this.code(check.customerId), this.code(check.client), this.code(check.platform),
      this.code(check.arch), this.code(check.channel), this.code(check.runningVersion), this.code(check.offeredVersion),
    );
    this.eventIds.push(check.eventId);
    this.installHashes.push(check.installHash);
    this.installIds.push(check.installId);
    this.timestamps.push(check.timestamp.getTime());
  }

  /** The window's checks as events, made when it is written and let go right after. */
  events(): CheckEvent[] {
    const value = (at: number): string => this.values[this.codes[at]] as string;
    return this.timestamps.map((ms, i): CheckEvent => {
      const at = i * CODED_FIELDS;
      return {
        eventId: this.eventIds[i],
        applicationId: value(at),
        customerId: value(at + 1),
        client: value(at + 2) as UpdateClientFamily,
        platform: value(at + 3) as Platform,
        arch: value(at + 4) as Arch,
        channel: value(at + 5),
        runningVersion: value(at + 6),
        offeredVersion: this.values[this.codes[at + 7]],
        installId: this.installIds[i],
        installHash: this.installHashes[i],
        timestamp: new Date(ms),
      };
    });
  }

  private code(value: string | null): number {
    let index = this.indices.get(value);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.indices.set(value, index);
    }
    return index;
  }
}

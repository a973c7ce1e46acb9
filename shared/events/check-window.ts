import type { Arch, Platform } from '../releases/platforms';
import { CHECK_CODE, CHECK_CODED_FIELDS, ValueCodes, writeCheckCodes } from '../store/check-codes';
import type { CheckEvent, UpdateClientFamily } from '../store/models';

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
  private readonly values = new ValueCodes();
  private readonly codes: number[] = [];
  private readonly eventIds: string[] = [];
  private readonly installHashes: string[] = [];
  private readonly installIds: (string | null)[] = [];
  private readonly timestamps: number[] = [];

  get length(): number {
    return this.timestamps.length;
  }

  push(check: CheckEvent): void {
    writeCheckCodes(this.codes, this.codes.length, check, this.values);
    this.eventIds.push(check.eventId);
    this.installHashes.push(check.installHash);
    this.installIds.push(check.installId);
    this.timestamps.push(check.timestamp.getTime());
  }

  /** The window's checks as events, made when it is written and let go right after. */
  events(): CheckEvent[] {
    const { values } = this.values;
    const value = (at: number): string => values[this.codes[at]] as string;
    return this.timestamps.map((ms, i): CheckEvent => {
      const at = i * CHECK_CODED_FIELDS;
      return {
        eventId: this.eventIds[i],
        applicationId: value(at + CHECK_CODE.application),
        customerId: value(at + CHECK_CODE.customer),
        client: value(at + CHECK_CODE.client) as UpdateClientFamily,
        platform: value(at + CHECK_CODE.platform) as Platform,
        arch: value(at + CHECK_CODE.arch) as Arch,
        channel: value(at + CHECK_CODE.channel),
        runningVersion: value(at + CHECK_CODE.runningVersion),
        offeredVersion: values[this.codes[at + CHECK_CODE.offeredVersion]],
        installId: this.installIds[i],
        installHash: this.installHashes[i],
        timestamp: new Date(ms),
      };
    });
  }
}

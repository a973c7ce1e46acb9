import type { CheckEvent } from './models';

/** An update check's fields whose values repeat from check to check, in the order they are coded. */
export const CHECK_CODE = { application: 0, customer: 1, client: 2, platform: 3, arch: 4, channel: 5, runningVersion: 6, offeredVersion: 7 } as const;
/** How many codes a check has. */
export const CHECK_CODED_FIELDS = 8;

/** Distinct values, each numbered the first time it is seen: each is kept (or copied) once. */
export class ValueCodes {
  readonly values: (string | null)[] = [];
  private readonly indices = new Map<string | null, number>();

  code(value: string | null): number {
    let index = this.indices.get(value);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.indices.set(value, index);
    }
    return index;
  }
}

/** Writes a check's codes at `at` onwards, in CHECK_CODE's order (a typed array, or an array it extends). */
export function writeCheckCodes(codes: { [index: number]: number }, at: number, check: CheckEvent, values: ValueCodes): void {
  codes[at + CHECK_CODE.application] = values.code(check.applicationId);
  codes[at + CHECK_CODE.customer] = values.code(check.customerId);
  codes[at + CHECK_CODE.client] = values.code(check.client);
  codes[at + CHECK_CODE.platform] = values.code(check.platform);
  codes[at + CHECK_CODE.arch] = values.code(check.arch);
  codes[at + CHECK_CODE.channel] = values.code(check.channel);
  codes[at + CHECK_CODE.runningVersion] = values.code(check.runningVersion);
  codes[at + CHECK_CODE.offeredVersion] = values.code(check.offeredVersion);
}

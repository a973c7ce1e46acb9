import type { FuzzCase } from './draft';

/**
 * Defects this suite found that are not fixed yet. Their cases are left out of the properties, so
 * that every other request to the same routes is still checked, and each defect shows in the test
 * report as a pending test with its name and a reproduction. Fixing one means deleting its entry
 * here: its cases then run again, known ones first.
 */
export interface PendingDefect {
  /** What is wrong, with a request that shows it. */
  name: string;
  /** Whether `fuzzCase` runs into this defect. */
  covers(fuzzCase: FuzzCase): boolean;
}

export const PENDING_DEFECTS: PendingDefect[] = [];

export function pendingDefectOf(fuzzCase: FuzzCase): PendingDefect | undefined {
  return PENDING_DEFECTS.find((pending) => pending.covers(fuzzCase));
}

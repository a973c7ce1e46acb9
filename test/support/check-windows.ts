import type { CheckLayout, CheckColumns } from '../../shared/store/sqlite/check-columns';

/** A check as a stored window holds it: its fields by name (coded or text, as the layout says) and its time. */
export interface WindowCheck {
  timestampMs: number;
  [field: string]: string | number | null;
}

/**
 * Columns of `checks` in any layout, independent of the store's builder: windows as a release that
 * codes other fields (fewer, more, in another order) would have written them.
 */
export function columnsInLayout(layout: CheckLayout, checks: readonly WindowCheck[]): CheckColumns {
  const values: (string | null)[] = [];
  const codeOf = (value: string | null): number => {
    const known = values.indexOf(value);
    return known >= 0 ? known : values.push(value) - 1;
  };
  const codes: number[] = [];
  const lengths: number[] = [];
  let text = '';
  for (const check of checks) {
    for (const field of layout.coded) codes.push(codeOf((check[field] ?? null) as string | null));
    for (const field of layout.texts) {
      const value = (check[field] ?? null) as string | null;
      lengths.push(value === null ? -1 : value.length);
      text += value ?? '';
    }
  }
  return {
    layout, values, codes: Uint32Array.from(codes), text, lengths: Int32Array.from(lengths),
    timestamps: Float64Array.from(checks, (check) => check.timestampMs),
  };
}

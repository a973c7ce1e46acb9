import type { ComponentChildren } from 'preact';

/**
 * A table that scrolls sideways on a narrow screen. The scrolling box takes focus (and is named), so a
 * keyboard user can scroll a table without links or buttons in it too.
 */
export function ScrollTable({ label, children }: { label: string; children: ComponentChildren }) {
  return <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>{children}</div>;
}

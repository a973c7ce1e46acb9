const MAX_LISTED = 10;

/** Where `after` differs from `before`, as `path: before → after` lines (at most a few). */
export function differences(before: unknown, after: unknown, path = '', found: string[] = []): string[] {
  if (found.length >= MAX_LISTED) return found;
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      differences(before[key], after[key], path ? `${path}.${key}` : key, found);
    }
  } else if (JSON.stringify(before) !== JSON.stringify(after)) {
    found.push(`${path || '(root)'}: ${shown(before)} → ${shown(after)}`);
  }
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

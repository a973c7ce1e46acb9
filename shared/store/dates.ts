/** UTC calendar date of an instant, YYYY-MM-DD: the unit of daily statistics. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

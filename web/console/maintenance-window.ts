/**
 * A maintenance window in the console's forms: its end is picked as a day (an `<input type="date">`)
 * and sent as that day's UTC midnight, which is how the portal and the API show it back.
 */

/** `YYYY-MM-DD` of a date input, as the API's date-time. */
export function updatesUntilOf(day: string): string {
  return `${day}T00:00:00Z`;
}

/** The date input's value for a stored instant (its UTC day); empty for none. */
export function dateInputOf(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '';
}

/** One sentence saying what the window offers. */
export function windowSummary(window: { updatesUntil: string | null; versionRange: string | null }): string {
  if (!window.updatesUntil && !window.versionRange) return 'No maintenance window: every release the customer may download is offered.';
  const limits = [
    window.versionRange ? `in ${window.versionRange}` : '',
    window.updatesUntil ? `published before ${window.updatesUntil.slice(0, 10)}` : '',
  ].filter(Boolean).join(' and ');
  return `Offered the newest release ${limits}, never a newer one; its access tokens can narrow this, never widen it.`;
}

/**
 * Squirrel.Mac as Electron's `autoUpdater` runs it on macOS (`SQRLUpdater`, release-server mode):
 * the feed URL the app set is requested with the app's headers and `Accept: application/json`; any
 * status outside 200-299 is an error, 204 means no update, and otherwise the JSON's `url` is
 * downloaded with `Accept: application/zip` and no other header (Electron builds the updater with the
 * default `requestForDownload`, a bare request for the URL). Squirrel installs whatever it is given.
 */

export interface SquirrelUpdate {
  url: string;
  name: string | null;
  notes: string | null;
  pubDate: string | null;
}

export class SquirrelMacClient {
  constructor(private readonly feedUrl: string, private readonly headers: Record<string, string>) {}

  async check(): Promise<SquirrelUpdate | null> {
    const response = await fetch(this.feedUrl, { headers: { ...this.headers, Accept: 'application/json' } });
    if (response.status < 200 || response.status > 299) throw new Error(`Update check failed (${response.status})`);
    if (response.status === 204) return null;
    const body = await response.json() as Record<string, unknown>;
    if (typeof body.url !== 'string') throw new Error('The server sent an invalid JSON response');
    // SQRLUpdate's date format: ISO 8601 to the second with a zone ('yyyy-MM-dd'T'HH:mm:ssZZZZZ').
    if (body.pub_date != null && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)$/.test(String(body.pub_date))) {
      throw new Error(`pub_date ${String(body.pub_date)} is not in the form Squirrel.Mac reads`);
    }
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return { url: body.url, name: text(body.name), notes: text(body.notes), pubDate: text(body.pub_date) };
  }

  /** The zip's bytes, fetched as Squirrel fetches them: none of the feed's headers. */
  async download(update: SquirrelUpdate): Promise<Buffer> {
    const response = await fetch(update.url, { headers: { Accept: 'application/zip' } });
    if (response.status < 200 || response.status > 299) throw new Error(`Update download failed (${response.status})`);
    return Buffer.from(await response.arrayBuffer());
  }
}

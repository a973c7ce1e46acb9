/**
 * Remembers the download URL last signed for each object and set of options, for the second it was
 * signed in. A signed URL is a pure function of its inputs and of the clock to the second, so during
 * a burst every request for one file in one second gets the same URL from one signature.
 */
export class SignedUrlMemo {
  private readonly entries = new Map<string, { second: number; url: string }>();

  constructor(private readonly maxEntries = 1_000) {}

  /** The URL for `inputs` at `second` (Unix seconds), signing it with `sign` unless already known. */
  get(inputs: readonly (string | number | undefined)[], second: number, sign: () => string): string {
    const id = JSON.stringify(inputs);
    const known = this.entries.get(id);
    if (known && known.second === second) return known.url;
    const url = sign();
    if (!known && this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(id, { second, url });
    return url;
  }
}

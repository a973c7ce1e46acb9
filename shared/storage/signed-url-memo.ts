import { BoundedMap } from '../cache/bounded-map';

/** What a signed URL depends on besides the clock, the object key first. */
export type SignedUrlInputs = readonly [objectKey: string, ...rest: (string | number | undefined)[]];

interface Entry {
  inputs: SignedUrlInputs;
  second: number;
  url: string;
}

/** Sets of options remembered per object: a download URL and a share-link redirect, with room to spare. */
const VARIANTS_PER_OBJECT = 4;

/**
 * Remembers the download URL last signed for each object and set of options, for the second it was
 * signed in. A signed URL is a pure function of its inputs and of the clock to the second, so during
 * a burst every request for one file in one second gets the same URL from one signature. Entries are
 * found by object key and told apart by comparing the inputs one by one, which costs less than
 * building a key from them.
 */
export class SignedUrlMemo {
  private readonly entries: BoundedMap<string, Entry[]>;

  /** `maxObjects`: objects remembered at most; past it the memo starts over. */
  constructor(maxObjects = 1_000) {
    this.entries = new BoundedMap(maxObjects);
  }

  /** The URL for `inputs` (the object key first) at `second` (Unix seconds), signing it with `sign` unless already known. */
  get(inputs: SignedUrlInputs, second: number, sign: () => string): string {
    let variants = this.entries.get(inputs[0]);
    const known = variants?.find((entry) => sameSignedUrlInputs(entry.inputs, inputs));
    if (known && known.second === second) return known.url;
    const url = sign();
    if (known) {
      known.second = second;
      known.url = url;
      return url;
    }
    if (!variants) {
      variants = [];
      this.entries.set(inputs[0], variants);
    }
    if (variants.length >= VARIANTS_PER_OBJECT) variants.shift();
    variants.push({ inputs: [...inputs], second, url });
    return url;
  }
}

function sameSignedUrlInputs(a: SignedUrlInputs, b: SignedUrlInputs): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

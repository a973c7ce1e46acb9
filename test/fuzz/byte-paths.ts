import fc from 'fast-check';
import { Draft, editTarget, Mutation } from './draft';

/**
 * Byte ranges a download client may send a file link: one range, a suffix, an open end, several,
 * backwards, outside the file, malformed, another unit, more than the service serves.
 */
const RANGES = ['bytes=0-9', 'bytes=-1', 'bytes=0-', 'bytes=0-1, 5-6', 'bytes=0-1,5-6,9-', 'bytes=5-4', 'bytes=99999999-', 'bytes=x', 'items=0-1', `bytes=${'0-0,'.repeat(1200)}0-0`];

/** Ways of writing the path's token prefix the router does not read as one: each reaches no route. */
const UNREAD_TOKEN_SPELLINGS = ['//t/', '/t//', '/./t/', '/%74/', '/T/'];

/** The premium customer's access tokens as a path carries them (fixture.ts `pathTokens`). */
export interface PathTokens {
  live: string;
  spent: string;
}

const asPathToken = (prefix: string, token: string) => (d: Draft) => {
  d.authorization = null;
  editTarget(d, (target) => `${prefix}${token}${target}`);
};

/**
 * What a file link (a feed's file, a package) may be sent besides its key: byte ranges, and the
 * premium customer's live access token in the path in place of the route's own credential
 * (`customer`; one a defect put there stays) with or without one. Any answer but a failure.
 */
export function byteRangeOddities(tokens: PathTokens, customer: string): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.constantFrom(...RANGES).map((range): Mutation => ({ label: `Range ${range.slice(0, 24)}`, defect: false, apply: (d) => { d.headers.push(['Range', range]); } })),
    fc.option(fc.constantFrom(...RANGES), { nil: undefined }).map((range): Mutation => ({
      label: `access token in the path${range ? `, Range ${range.slice(0, 24)}` : ''}`,
      defect: false,
      apply: (d) => {
        // Decided when the target is rendered (before the headers): a defect applied after this
        // oddity that changed the credential keeps it, and the path stays the route's own.
        editTarget(d, (target) => {
          if (d.authorization !== customer) return target;
          d.authorization = null;
          return `/t/${tokens.live}${target}`;
        });
        if (range) d.headers.push(['Range', range]);
      },
    })),
  );
}

/**
 * What a file link must refuse: a token whose downloads are spent asking for byte ranges (403, never
 * the bytes nor a redirect to them; `spentAnswer` where the link names no file the fixture holds),
 * and a token in a path spelling the router does not read (404).
 */
export function tokenPathDefects(tokens: PathTokens, spentAnswer = 403): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.constantFrom('bytes=0-0', 'bytes=0-', 'bytes=-1', 'bytes=0-1,5-6').map((range): Mutation => ({
      label: `a spent access token asking for Range ${range}`, defect: true, expects: [spentAnswer],
      apply: (d) => {
        asPathToken('/t/', tokens.spent)(d);
        d.headers.push(['Range', range]);
      },
    })),
    fc.constantFrom(...UNREAD_TOKEN_SPELLINGS).map((prefix): Mutation => ({
      label: `an access token after ${prefix}`, defect: true, expects: [404],
      apply: asPathToken(prefix, tokens.live),
    })),
  );
}

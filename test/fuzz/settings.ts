/**
 * How much the fuzz suite does, fixed by default so every run of `npm test` sends the same requests.
 * FUZZ_SEED explores other requests; FUZZ_RUNS sets the generated requests per route (known cases
 * come on top); FUZZ_ANSWER_BOUND_MS is how long a request may go unanswered before it counts as a
 * hang. The same FUZZ_SEED sends the same requests again.
 */
export const FUZZ = {
  seed: integerFromEnv('FUZZ_SEED', 20_261_123),
  runs: integerFromEnv('FUZZ_RUNS', 100),
  answerBoundMs: integerFromEnv('FUZZ_ANSWER_BOUND_MS', 5_000),
};

/** A seed per route derived from FUZZ_SEED, so adding a route changes no other route's requests. */
export function seedFor(route: string): number {
  let hash = 0x811c9dc5;
  for (const char of route) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (hash ^ FUZZ.seed) | 0;
}

function integerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, not ${raw}`);
  return value;
}

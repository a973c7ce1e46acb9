import { bearerCredential, hashSecret, sameDigest } from '../secrets';

/**
 * Whether an Authorization header presents the metrics token (`Bearer <METRICS_TOKEN>`), compared as
 * SHA-256 digests in constant time; only the digest is kept.
 */
export function metricsTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = hashSecret(token);
  return (authorization) => {
    const presented = bearerCredential(authorization);
    return presented !== undefined && sameDigest(hashSecret(presented), expected);
  };
}

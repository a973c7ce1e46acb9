import type { S3Client } from '@aws-sdk/client-s3';
import { DependencyUnavailableError } from '../../errors';

/** How Node reports a store it cannot reach, whichever step of the connection failed. */
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

interface SdkFailure {
  name?: unknown;
  code?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/**
 * True when the store failed rather than the request: it could not be reached, the bucket is missing,
 * or S3 answered with a 5xx of its own. A HEAD has no body to name what is missing: for the bucket
 * itself (HeadBucket, the readiness check) a 404 means the bucket.
 */
function isStoreFailure(error: unknown, commandName: string | undefined): boolean {
  if (!error || typeof error !== 'object') return false;
  const failure = error as SdkFailure;
  const status = failure.$metadata?.httpStatusCode;
  if (typeof status === 'number' && status >= 500) return true;
  if (failure.name === 'NoSuchBucket' || (commandName === 'HeadBucketCommand' && status === 404)) return true;
  return failure.name === 'TimeoutError' || (typeof failure.code === 'string' && NETWORK_ERROR_CODES.has(failure.code));
}

/**
 * Every command `client` sends (the adapter's own and those of the SDK's multipart upload) fails with
 * DependencyUnavailableError when the store failed, once the SDK's retries are spent: the one place
 * S3 errors become the port's.
 */
export function reportStoreFailures(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        throw isStoreFailure(error, context.commandName) ? new DependencyUnavailableError('object storage', error) : error;
      }
    },
    { step: 'initialize', name: 'reportStoreFailures' },
  );
}

import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentDisposition } from '../object-storage';
import { GetUrlRequest, S3GetUrlPresigner, S3Location } from './sigv4-presigner';

/** A GET URL request before the credentials of the moment are added. */
export type UnsignedGetUrlRequest = Omit<GetUrlRequest, 'credentials'>;

/** A GET URL signed by the SDK's own presigner, with the client's credentials. */
export function presignGetWithSdk(client: S3Client, bucket: string, request: UnsignedGetUrlRequest): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: bucket,
    Key: request.key,
    ResponseContentDisposition: request.responseContentDisposition,
    ResponseContentType: request.responseContentType,
  });
  return getSignedUrl(client, command, { expiresIn: request.expiresInSeconds, signingDate: request.now });
}

/**
 * The presigner chosen from the configuration, when `client` still signs the URLs it reproduces; undefined
 * when GET URLs must be signed by the SDK. The SDK also takes endpoint, FIPS, dual-stack and global-endpoint
 * settings from the environment and the shared config files: one probe, signed both ways, shows which applies.
 */
export async function confirmGetUrlPresigner(client: S3Client, location: S3Location): Promise<S3GetUrlPresigner | undefined> {
  const presigner = S3GetUrlPresigner.forLocation(location);
  if (presigner === undefined) return undefined;
  const probe: UnsignedGetUrlRequest = {
    key: 'probe/ünï +(1).bin',
    expiresInSeconds: 60,
    responseContentDisposition: attachmentDisposition('ünï +(1).bin'),
    responseContentType: 'application/octet-stream',
    now: new Date(),
  };
  const credentials = await client.config.credentials();
  const sdkUrl = await presignGetWithSdk(client, location.bucket, probe);
  return presigner.presign({ ...probe, credentials }) === sdkUrl ? presigner : undefined;
}

import { createHash, createHmac } from 'node:crypto';
import { PRESIGNED_URL_MAX_SECONDS } from '../../policy';

/** Where a bucket's objects live, as the S3Client options name it. */
export interface S3Location {
  bucket: string;
  region: string;
  /** A custom endpoint (MinIO, a test server); undefined means AWS. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
}

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface GetUrlRequest {
  key: string;
  /** Resolved for each call, so refreshed temporary credentials take effect at once. */
  credentials: SigningCredentials;
  expiresInSeconds: number;
  responseContentDisposition?: string;
  responseContentType?: string;
  now: Date;
}

const SERVICE = 's3';
const ALGORITHM = 'AWS4-HMAC-SHA256';
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
/** Regions of the standard AWS partition, whose endpoints are `s3.<region>.amazonaws.com`. */
const AWS_PARTITION_REGION = /^(us|eu|ap|sa|ca|me|af|il|mx)-[a-z0-9]+-\d+$/;
/** The SDK refuses a region for a custom endpoint unless it is one DNS label. */
const HOST_LABEL = /^(?!-)[a-zA-Z0-9-]{1,63}(?<!-)$/;
/** Bucket names the SDK accepts in a path without escaping them. */
const PLAIN_BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Only a bucket name that is one DNS label goes into the host name; the SDK sends any other in the path. */
const VIRTUAL_HOSTABLE_BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
/** Directory buckets, access point aliases and Outposts, which the SDK addresses and signs differently. */
const SPECIAL_BUCKET_SUFFIX = /--[a-z]+-s3$/;
const IP_ADDRESS_HOST = /^(\d+\.){3}\d+$|^\[.*\]$/;

/**
 * SigV4 query-string signing of S3 GET URLs, byte for byte what `getSignedUrl` from @aws-sdk/s3-request-presigner
 * produces for a GetObjectCommand, without its per-call cost: the SDK builds a middleware stack and evaluates the
 * endpoint rules on every call, while the address of a bucket is fixed and the signing key changes once a day.
 */
export class S3GetUrlPresigner {
  private signingKey: { date: string; secretAccessKey: string; key: Buffer } | undefined;

  private constructor(
    private readonly region: string,
    private readonly origin: string,
    private readonly host: string,
    /** Path before the object key: empty, or the bucket (path-style) behind any base path of the endpoint. */
    private readonly pathPrefix: string,
  ) {}

  /**
   * A presigner for the bucket, addressed as S3Client addresses it; undefined for configurations whose URLs it
   * does not reproduce, which stay with getSignedUrl.
   */
  static forLocation({ bucket, region, endpoint, forcePathStyle }: S3Location): S3GetUrlPresigner | undefined {
    if (!PLAIN_BUCKET_NAME.test(bucket) || SPECIAL_BUCKET_SUFFIX.test(bucket)) return undefined;
    const virtualHostable = !forcePathStyle && VIRTUAL_HOSTABLE_BUCKET_NAME.test(bucket);
    if (endpoint === undefined) {
      if (!AWS_PARTITION_REGION.test(region)) return undefined;
      const host = `s3.${region}.amazonaws.com`;
      return virtualHostable
        ? new S3GetUrlPresigner(region, 'https:', `${bucket}.${host}`, '')
        : new S3GetUrlPresigner(region, 'https:', host, `/${bucket}`);
    }
    if (!HOST_LABEL.test(region)) return undefined;
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return undefined;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '') return undefined;
    // An IP address cannot take the bucket as a subdomain; `host` leaves out a default port, as the SDK does.
    if (virtualHostable && !IP_ADDRESS_HOST.test(url.hostname)) {
      return new S3GetUrlPresigner(region, url.protocol, `${bucket}.${url.host}`, url.pathname === '/' ? '' : url.pathname);
    }
    const basePath = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    return new S3GetUrlPresigner(region, url.protocol, url.host, `${basePath}${bucket}`);
  }

  presign(request: GetUrlRequest): string {
    const { credentials, expiresInSeconds, now } = request;
    if (expiresInSeconds > PRESIGNED_URL_MAX_SECONDS) {
      throw new Error('Signature version 4 presigned URLs must have an expiration date less than one week in the future');
    }
    const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
    const date = amzDate.slice(0, 8);
    const scope = `${date}/${this.region}/${SERVICE}/aws4_request`;
    // S3 signs the path as sent: each segment escaped once, never twice.
    const path = `${this.pathPrefix}/${request.key.split('/').map(uriEscape).join('/')}`;

    const parameters = [
      parameter('X-Amz-Algorithm', ALGORITHM),
      parameter('X-Amz-Content-Sha256', UNSIGNED_PAYLOAD),
      parameter('X-Amz-Credential', `${credentials.accessKeyId}/${scope}`),
      parameter('X-Amz-Date', amzDate),
      parameter('X-Amz-Expires', String(expiresInSeconds)),
      parameter('X-Amz-SignedHeaders', 'host'),
      parameter('x-id', 'GetObject'),
    ];
    if (credentials.sessionToken) parameters.push(parameter('X-Amz-Security-Token', credentials.sessionToken));
    if (request.responseContentDisposition !== undefined) {
      parameters.push(parameter('response-content-disposition', request.responseContentDisposition));
    }
    if (request.responseContentType !== undefined) parameters.push(parameter('response-content-type', request.responseContentType));

    const canonicalRequest = ['GET', path, queryString(parameters), `host:${this.host}`, '', 'host', UNSIGNED_PAYLOAD].join('\n');
    const stringToSign = [ALGORITHM, amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
    const signature = createHmac('sha256', this.signingKeyFor(date, credentials.secretAccessKey)).update(stringToSign).digest('hex');
    parameters.push(parameter('X-Amz-Signature', signature));
    return `${this.origin}//${this.host}${path}?${queryString(parameters)}`;
  }

  /** Four chained HMACs, the same for a whole day; kept until the date or the secret changes. */
  private signingKeyFor(date: string, secretAccessKey: string): Buffer {
    if (this.signingKey?.date !== date || this.signingKey.secretAccessKey !== secretAccessKey) {
      let key: Buffer = Buffer.from(`AWS4${secretAccessKey}`);
      for (const part of [date, this.region, SERVICE, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
      this.signingKey = { date, secretAccessKey, key };
    }
    return this.signingKey.key;
  }
}

/** A query parameter: its name, and `name=value` escaped once for both the canonical request and the URL. */
function parameter(name: string, value: string): [string, string] {
  return [name, `${name}=${uriEscape(value)}`];
}

/** Sorted by name, as both the canonical request and the SDK's URL order them. */
function queryString(parameters: Array<[string, string]>): string {
  return [...parameters]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, pair]) => pair)
    .join('&');
}

const ESCAPED_MARKS: Record<string, string> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '*': '%2A' };

/** RFC 3986 escaping: everything but A-Z a-z 0-9 - _ . ~, so also ! ' ( ) * which encodeURIComponent keeps. */
function uriEscape(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (mark) => ESCAPED_MARKS[mark]);
}

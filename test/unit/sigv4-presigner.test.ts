import { expect } from 'chai';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../../shared/config';
import { attachmentDisposition } from '../../shared/storage/object-storage';
import { S3Storage } from '../../shared/storage/s3/s3-storage';
import { createS3Client } from '../../shared/storage/s3/s3-client';
import { confirmGetUrlPresigner } from '../../shared/storage/s3/sdk-get-urls';
import { GetUrlRequest, S3GetUrlPresigner, S3Location, SigningCredentials } from '../../shared/storage/s3/sigv4-presigner';

const SIGNED_AT = new Date('2030-03-04T05:06:07.890Z');

const STATIC_KEYS: SigningCredentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

/** Temporary credentials; the token carries '/', '+' and '=' to show it is escaped in the query. */
const TEMPORARY_KEYS: SigningCredentials = {
  accessKeyId: 'ASIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+example/token==',
};

const KEYS = [
  'installer.bin',
  'apps/app 1/My Installer (x64).exe',
  'apps/app_1/ünïcødé-файл-名前.bin',
  'apps/app_1/1.0.0+build.5/setup+extras.zip',
  'percent/100%25 and 50%.txt',
  'tilde/~user/file~1.txt',
  "marks/!*'().bin",
  'query-like/a=b&c=d?e#f.bin',
  'deeply/nested/path/to/the/file.tar.gz',
  '/leading-slash.bin',
  '//leading-double-slash.bin',
  'double//slash.bin',
  'trailing-slash/',
  'dots/./and/../segments',
  'emoji/📦 package.zip',
  'spaces   and\ttab.bin',
  'colon:semicolon;comma,at@dollar$.bin',
  '[brackets]{braces}|pipe^caret`backtick<less>"quote\\.bin',
];

const FILE_NAMES = ['My Installer (x64).exe', 'ünïcødé-файл-名前.bin', 'quote"and\\backslash.txt', "it's 100% ready!.zip", '📦 package.zip'];
const CONTENT_TYPES = [undefined, 'application/octet-stream', 'application/vnd.android.package-archive', 'text/plain; charset=utf-8'];

/** The configurations S3Storage supports, and the addressing S3Client picks for each. */
const LOCATIONS: Array<[string, S3Location]> = [
  ['AWS us-east-1, virtual-hosted', { bucket: 'downloads-bucket', region: 'us-east-1', endpoint: undefined, forcePathStyle: false }],
  ['AWS eu-west-1, virtual-hosted', { bucket: 'downloads-bucket', region: 'eu-west-1', endpoint: undefined, forcePathStyle: false }],
  ['AWS ap-southeast-2, virtual-hosted', { bucket: 'dl-2', region: 'ap-southeast-2', endpoint: undefined, forcePathStyle: false }],
  ['AWS eu-west-1, a bucket with dots goes in the path', { bucket: 'downloads.example.com', region: 'eu-west-1', endpoint: undefined, forcePathStyle: false }],
  ['AWS us-east-1, forced path-style', { bucket: 'downloads-bucket', region: 'us-east-1', endpoint: undefined, forcePathStyle: true }],
  ['http://127.0.0.1:9000, path-style', { bucket: 'downloads', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }],
  ['http://127.0.0.1 without a port, path-style', { bucket: 'downloads', region: 'eu-west-1', endpoint: 'http://127.0.0.1', forcePathStyle: true }],
  ['http://minio:9000/, a one-label host, path-style', { bucket: 'downloads', region: 'us-east-1', endpoint: 'http://minio:9000/', forcePathStyle: true }],
  ['an IP endpoint is path-style even when not forced', { bucket: 'downloads', region: 'us-east-1', endpoint: 'http://10.0.0.5:9000', forcePathStyle: false }],
  ['http://[::1]:9000, IPv6', { bucket: 'downloads', region: 'us-east-1', endpoint: 'http://[::1]:9000', forcePathStyle: false }],
  ['http://localhost:9000, virtual-hosted', { bucket: 'downloads', region: 'us-east-1', endpoint: 'http://localhost:9000', forcePathStyle: false }],
  ['https://Storage.Example.com, virtual-hosted', { bucket: 'downloads', region: 'ap-southeast-2', endpoint: 'https://Storage.Example.com', forcePathStyle: false }],
  ['https endpoint with its default port and a dotted bucket', { bucket: 'dl.example.com', region: 'eu-west-1', endpoint: 'https://storage.example.com:443', forcePathStyle: false }],
  ['http endpoint with a dotted bucket', { bucket: 'dl.example.com', region: 'us-east-1', endpoint: 'http://storage.example.com:9000', forcePathStyle: false }],
  ['endpoint with a base path, path-style', { bucket: 'downloads', region: 'us-east-1', endpoint: 'https://gateway.example.com/s3', forcePathStyle: true }],
  ['endpoint with a base path, virtual-hosted', { bucket: 'downloads', region: 'us-east-1', endpoint: 'https://gateway.example.com/s3/', forcePathStyle: false }],
];

/** The reference: S3Client with the options createS3Client gives it, and getSignedUrl. */
function sdkClient(location: S3Location, credentials: SigningCredentials): S3Client {
  return new S3Client({
    endpoint: location.endpoint,
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function sdkUrl(client: S3Client, bucket: string, request: GetUrlRequest): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: bucket,
    Key: request.key,
    ResponseContentDisposition: request.responseContentDisposition,
    ResponseContentType: request.responseContentType,
  });
  return getSignedUrl(client, command, { expiresIn: request.expiresInSeconds, signingDate: request.now });
}

function presignerFor(location: S3Location): S3GetUrlPresigner {
  const presigner = S3GetUrlPresigner.forLocation(location);
  if (presigner === undefined) throw new Error('expected a presigner for this location');
  return presigner;
}

function request(key: string, credentials: SigningCredentials, overrides: Partial<GetUrlRequest> = {}): GetUrlRequest {
  return {
    key,
    credentials,
    expiresInSeconds: 300,
    responseContentDisposition: attachmentDisposition('file.bin'),
    now: SIGNED_AT,
    ...overrides,
  };
}

/** One presigner signs all the requests, so its signing-key cache is under test as well. */
async function expectSdkUrls(location: S3Location, requests: GetUrlRequest[]): Promise<void> {
  const presigner = presignerFor(location);
  for (const each of requests) {
    const client = sdkClient(location, each.credentials);
    try {
      const expected = await sdkUrl(client, location.bucket, each);
      expect(presigner.presign(each), JSON.stringify({ ...each, credentials: each.credentials.accessKeyId })).to.equal(expected);
    } finally {
      client.destroy();
    }
  }
}

function signedAtOf(url: string): Date {
  const amzDate = new URL(url).searchParams.get('X-Amz-Date') ?? '';
  return new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
}

/** Sets environment variables for the duration of `body`; the SDK reads them when a client resolves its config. */
async function withEnvironment<T>(variables: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return await body();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('S3GetUrlPresigner', () => {
  for (const [name, location] of LOCATIONS) {
    describe(name, () => {
      it('signs every key as getSignedUrl does, with static and temporary credentials', async () => {
        const requests = [STATIC_KEYS, TEMPORARY_KEYS].flatMap((credentials) => KEYS.map((key) => request(key, credentials)));
        await expectSdkUrls(location, requests);
      });

      it('signs Content-Disposition and Content-Type overrides as getSignedUrl does', async () => {
        const requests = FILE_NAMES.flatMap((fileName) => CONTENT_TYPES.map((contentType) => request('apps/app 1/ünï+file.bin', STATIC_KEYS, {
          responseContentDisposition: attachmentDisposition(fileName),
          responseContentType: contentType,
        })));
        await expectSdkUrls(location, requests);
      });
    });
  }

  it('signs without overrides, and with any lifetime up to a week, as getSignedUrl does', async () => {
    const location = LOCATIONS[0][1];
    const requests = [1, 3600, 7 * 24 * 3600].flatMap((expiresInSeconds) => [
      request('installer.bin', STATIC_KEYS, { expiresInSeconds, responseContentDisposition: undefined }),
      request('installer.bin', TEMPORARY_KEYS, { expiresInSeconds, responseContentType: '' }),
    ]);
    await expectSdkUrls(location, requests);
  });

  it('derives a new signing key when the day or the secret changes', async () => {
    const location = LOCATIONS[5][1];
    const rotated: SigningCredentials = { ...STATIC_KEYS, secretAccessKey: 'rotated/secret+KEY' };
    const requests = [
      request('a.bin', STATIC_KEYS, { now: new Date('2030-03-04T23:59:59Z') }),
      request('a.bin', STATIC_KEYS, { now: new Date('2030-03-05T00:00:00Z') }),
      request('a.bin', rotated, { now: new Date('2030-03-05T00:00:01Z') }),
      request('a.bin', STATIC_KEYS, { now: new Date('2030-03-05T00:00:02Z') }),
      request('a.bin', TEMPORARY_KEYS, { now: new Date('2030-03-05T00:00:03Z') }),
    ];
    await expectSdkUrls(location, requests);
  });

  it('refuses a lifetime over a week, as getSignedUrl does', async () => {
    const location = LOCATIONS[0][1];
    const tooLong = request('a.bin', STATIC_KEYS, { expiresInSeconds: 7 * 24 * 3600 + 1 });
    const client = sdkClient(location, STATIC_KEYS);
    try {
      const sdkError = await sdkUrl(client, location.bucket, tooLong).then(() => undefined, (error: Error) => error);
      expect(sdkError?.message).to.match(/less than one week/);
    } finally {
      client.destroy();
    }
    expect(() => presignerFor(location).presign(tooLong)).to.throw(/less than one week/);
  });

  it('leaves to getSignedUrl the configurations whose URLs it does not reproduce', () => {
    const unsupported: S3Location[] = [
      // Other partitions and the global pseudo-region have their own host names.
      { bucket: 'downloads', region: 'cn-north-1', endpoint: undefined, forcePathStyle: false },
      { bucket: 'downloads', region: 'us-gov-west-1', endpoint: undefined, forcePathStyle: false },
      { bucket: 'downloads', region: 'aws-global', endpoint: undefined, forcePathStyle: false },
      // Directory buckets sign with S3 Express session credentials.
      { bucket: 'downloads--use1-az4--x-s3', region: 'us-east-1', endpoint: undefined, forcePathStyle: false },
      // Names the SDK escapes or rejects.
      { bucket: 'Downloads_Bucket', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true },
      { bucket: 'downloads', region: 'us_east_1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true },
      { bucket: 'downloads', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000/?tenant=a', forcePathStyle: true },
    ];
    for (const location of unsupported) expect(S3GetUrlPresigner.forLocation(location), JSON.stringify(location)).to.equal(undefined);
  });
});

describe('S3Storage.presignGet', () => {
  function configFor(location: S3Location, credentials?: SigningCredentials): S3Config {
    return { ...location, accessKeyId: credentials?.accessKeyId, secretAccessKey: credentials?.secretAccessKey };
  }

  /** Whether GET URLs are signed by the presigner (true) or getSignedUrl (false): the choice S3Storage makes for its client. */
  async function signsDirectly(config: S3Config): Promise<boolean> {
    const client = createS3Client(config);
    try {
      return (await confirmGetUrlPresigner(client, config)) !== undefined;
    } finally {
      client.destroy();
    }
  }

  async function expectSdkUrlFrom(storage: S3Storage, location: S3Location, credentials: SigningCredentials): Promise<string> {
    const key = 'apps/app 1/ünï+file.bin';
    const url = await storage.presignGet(key, { expiresInSeconds: 300, fileName: 'Setup (ü).exe', contentType: 'application/x-msdownload' });
    const client = sdkClient(location, credentials);
    try {
      expect(url).to.equal(await sdkUrl(client, location.bucket, request(key, credentials, {
        responseContentDisposition: attachmentDisposition('Setup (ü).exe'),
        responseContentType: 'application/x-msdownload',
        now: signedAtOf(url),
      })));
    } finally {
      client.destroy();
    }
    return url;
  }

  it('signs GET URLs itself for a supported configuration, with static keys', async () => {
    const location = LOCATIONS[5][1];
    expect(await signsDirectly(configFor(location, STATIC_KEYS))).to.equal(true);
    const storage = new S3Storage(configFor(location, STATIC_KEYS));
    try {
      await expectSdkUrlFrom(storage, location, STATIC_KEYS);
    } finally {
      await storage.close();
    }
  });

  it('signs GET URLs itself with credentials from the default chain, session token included', async () => {
    const location = LOCATIONS[1][1];
    await withEnvironment({
      AWS_ACCESS_KEY_ID: TEMPORARY_KEYS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: TEMPORARY_KEYS.secretAccessKey,
      AWS_SESSION_TOKEN: TEMPORARY_KEYS.sessionToken ?? '',
    }, async () => {
      expect(await signsDirectly(configFor(location))).to.equal(true);
      const storage = new S3Storage(configFor(location));
      try {
        const url = await expectSdkUrlFrom(storage, location, TEMPORARY_KEYS);
        expect(new URL(url).searchParams.get('X-Amz-Security-Token')).to.equal(TEMPORARY_KEYS.sessionToken);
      } finally {
        await storage.close();
      }
    });
  });

  it('falls back to getSignedUrl for a configuration the presigner does not reproduce', async () => {
    const location: S3Location = { bucket: 'downloads', region: 'cn-north-1', endpoint: undefined, forcePathStyle: false };
    expect(await signsDirectly(configFor(location, STATIC_KEYS))).to.equal(false);
    const storage = new S3Storage(configFor(location, STATIC_KEYS));
    try {
      const url = await expectSdkUrlFrom(storage, location, STATIC_KEYS);
      expect(new URL(url).host).to.equal('downloads.s3.cn-north-1.amazonaws.com.cn');
    } finally {
      await storage.close();
    }
  });

  it('falls back to getSignedUrl when the environment changes the SDK endpoint', async () => {
    const location = LOCATIONS[0][1];
    const overrides: Array<Record<string, string>> = [{ AWS_USE_FIPS_ENDPOINT: 'true' }, { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000' }];
    for (const variables of overrides) {
      await withEnvironment(variables, async () => {
        expect(await signsDirectly(configFor(location, STATIC_KEYS)), JSON.stringify(variables)).to.equal(false);
        const storage = new S3Storage(configFor(location, STATIC_KEYS));
        try {
          await expectSdkUrlFrom(storage, location, STATIC_KEYS);
        } finally {
          await storage.close();
        }
      });
    }
  });
});

import { AssertionError } from 'chai';
import { ApiError, createClient, type Client, type Refusal, type Transport } from '../../shared/contract/client';
import { API_DESCRIPTION_PATH } from '../../shared/contract/endpoints';
import { ApiResponseCheck } from './api-responses';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else undefined. */
  body: T;
  raw: Buffer;
}

export interface RequestOptions {
  /** A bearer key; defaults to the admin key, `null` sends none. */
  key?: string | null;
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  redirect?: RequestInit['redirect'];
}

/**
 * Small fetch wrapper for tests: JSON in, envelope out, admin key by default. Every response from the
 * service (its own origin) is checked against the API description the service serves, read once per
 * client: a response the description does not allow fails the request, and so the test.
 */
export class HttpClient {
  private check: Promise<ApiResponseCheck> | undefined;

  constructor(readonly baseUrl: string, readonly adminKey: string) {}

  async request<T = any>(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.adminKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const url = new URL(pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`);
    const response = await fetch(url, { method, headers, body, redirect: options.redirect ?? 'manual', duplex: 'half' } as RequestInit);
    const raw = Buffer.from(await response.arrayBuffer());
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const result = { status: response.status, headers: response.headers, body: isJson && raw.length ? JSON.parse(raw.toString()) : undefined, raw };
    // A followed redirect ends elsewhere: the answer checked is the last one, for the URL it came from.
    const answered = response.redirected ? new URL(response.url) : url;
    if (answered.origin === new URL(this.baseUrl).origin) await this.expectDescribed(response.redirected ? 'GET' : method, answered, result);
    return result;
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, json });
  }

  patch<T = any>(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, json });
  }

  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }

  /**
   * The typed client of the operations table (shared/contract/client.ts) over this client's requests,
   * so every answer is checked against the API description as the raw calls' are. With the admin key
   * unless given another (a customer's key, a scoped admin key); `null` sends none. A refusal throws
   * ApiError, its message led by the status and code.
   */
  api(key: string | null = this.adminKey): Client {
    const transport: Transport = async (wire) => {
      const result = await this.request(wire.method, wire.url, { key: null, headers: wire.headers, body: wire.body as RequestInit['body'] });
      return { status: result.status, header: (name) => result.headers.get(name), text: result.raw.toString() };
    };
    return createClient({
      baseUrl: this.baseUrl,
      transport,
      headers: (): Record<string, string> => (key === null ? {} : { authorization: `Bearer ${key}` }),
      refused: (refusal) => new ApiError({ ...refusal, message: describeRefusal(refusal) }),
    });
  }

  private async expectDescribed(method: string, url: URL, result: HttpResult): Promise<void> {
    this.check ??= this.readDescription().catch((error: unknown) => {
      // A service not up yet is read again with the next response.
      this.check = undefined;
      throw error;
    });
    const problems = (await this.check).problems({
      method,
      path: url.pathname,
      status: result.status,
      contentType: result.headers.get('content-type'),
      body: result.body,
      hasBody: result.raw.length > 0,
      headerNames: [...result.headers.keys()],
    });
    if (problems.length > 0) {
      throw new AssertionError(`${method} ${url.pathname} answered ${result.status} outside the API description:\n  ${problems.join('\n  ')}\n${result.raw.toString().slice(0, 2000)}`);
    }
  }

  private async readDescription(): Promise<ApiResponseCheck> {
    const response = await fetch(`${this.baseUrl}${API_DESCRIPTION_PATH}`);
    if (response.status !== 200) throw new AssertionError(`GET ${API_DESCRIPTION_PATH} answered ${response.status}`);
    return ApiResponseCheck.of(await response.json());
  }
}

/** `400 VALIDATION_ERROR: ... (name: required)`: what a failed helper call says in a test's output. */
function describeRefusal(refusal: Refusal): string {
  const details = refusal.details.map((detail) => `${detail.field}: ${detail.message}`).join('; ');
  return `${refusal.status} ${refusal.code}: ${refusal.message}${details ? ` (${details})` : ''}`;
}

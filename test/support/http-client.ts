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

/** Small fetch wrapper for tests: JSON in, envelope out, admin key by default. */
export class HttpClient {
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
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
    const response = await fetch(url, { method, headers, body, redirect: options.redirect ?? 'manual', duplex: 'half' } as RequestInit);
    const raw = Buffer.from(await response.arrayBuffer());
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    return { status: response.status, headers: response.headers, body: isJson && raw.length ? JSON.parse(raw.toString()) : undefined, raw };
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
}

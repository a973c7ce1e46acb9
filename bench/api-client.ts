/** The service's HTTP API as the bench uses it: envelopes unwrapped, unexpected statuses thrown. */
export interface CallOptions {
  key: string;
  method?: string;
  json?: unknown;
  form?: FormData;
  expect?: number[];
}

export class ApiClient {
  constructor(readonly baseUrl: string, readonly adminKey: string) {}

  /** An admin call; returns the envelope's `data`. */
  admin<T>(path: string, options: Omit<CallOptions, 'key'> = {}): Promise<T> {
    return this.call<T>(path, { ...options, key: this.adminKey });
  }

  async call<T>(path: string, options: CallOptions): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${options.key}` };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: options.method ?? (options.json === undefined && !options.form ? 'GET' : 'POST'),
      headers,
      body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
      redirect: 'manual',
    });
    const text = await response.text();
    if (!(options.expect ?? [200, 201]).includes(response.status)) {
      throw new Error(`${options.method ?? 'request'} ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
    }
    return (JSON.parse(text) as { data: T }).data;
  }
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, as it got it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request: a status and a body, or never (`hang`). */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 standing in for a vendor's webhook endpoint: it records every
 * request and answers from a script (each request takes the next answer; the last one repeats).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private script: ReceiverAnswer[] = [{ status: 200 }];
  private answered = 0;
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The answers of the next requests, in order; the last one repeats. */
  answer(...script: ReceiverAnswer[]): void {
    this.script = script;
    this.answered = 0;
  }

  /** Requests whose body has this event type. */
  ofType(type: string): ReceivedRequest[] {
    return this.requests.filter((request) => (JSON.parse(request.body) as { type: string }).type === type);
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = this.script[Math.min(this.answered, this.script.length - 1)];
      this.answered += 1;
      if (answer === 'hang') {
        this.hanging.add(response);
        return;
      }
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body ?? '');
    });
  }
}

import http from 'node:http';
import net from 'node:net';

/** Which requests a rule applies to. */
export interface RequestMatch {
  method: 'GET' | 'PUT';
}

/**
 * An HTTP proxy in front of the service's signed object URLs (PUBLIC_BASE_URL points at it), to
 * stand for a network that fails mid-transfer. Every request is forwarded unless a rule says:
 * - `cutAfterBytes`: a matching response stops after `bytes` bytes of its body and hangs;
 * - `failNext`: the next `count` matching requests lose their connection before any answer.
 */
export class TransferProxy {
  private target: URL | undefined;
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();
  private rule: { kind: 'cut'; match: RequestMatch; bytes: number } | { kind: 'fail'; match: RequestMatch; remaining: number } | undefined;
  private stalled: (() => void) | undefined;
  /** Transfers a rule cut: ended when the rule is cleared (their client is gone by then). */
  private readonly stalledTransfers = new Set<{ destroy(): void }>();
  /** The Range header of every GET, in order (null when absent). */
  readonly ranges: (string | null)[] = [];

  private constructor(readonly port: number, server: http.Server) {
    this.server = server;
  }

  static async start(): Promise<TransferProxy> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new TransferProxy((server.address() as net.AddressInfo).port, server);
    server.on('request', (req, res) => proxy.handle(req, res));
    server.on('connection', (socket) => {
      proxy.sockets.add(socket);
      socket.once('close', () => proxy.sockets.delete(socket));
    });
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  forwardTo(target: string): void {
    this.target = new URL(target);
  }

  /** Resolves when the response has been cut (the transfer then hangs). */
  cutAfterBytes(match: RequestMatch, bytes: number): Promise<void> {
    this.rule = { kind: 'cut', match, bytes };
    return this.stall();
  }

  failNext(match: RequestMatch, count: number): void {
    this.rule = { kind: 'fail', match, remaining: count };
  }

  /** Forward everything again; transfers stalled so far are cut (their client is expected to be gone). */
  clearRule(): void {
    this.rule = undefined;
    for (const transfer of this.stalledTransfers) transfer.destroy();
    this.stalledTransfers.clear();
  }

  async close(): Promise<void> {
    this.clearRule();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private stall(): Promise<void> {
    return new Promise((resolve) => {
      this.stalled = resolve;
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method === 'GET') this.ranges.push(typeof req.headers.range === 'string' ? req.headers.range : null);
    const rule = this.rule && req.method === this.rule.match.method ? this.rule : undefined;
    if (rule?.kind === 'fail' && rule.remaining > 0) {
      rule.remaining -= 1;
      req.socket.destroy();
      return;
    }
    const target = this.target as URL;
    const upstream = http.request({
      host: target.hostname, port: target.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: target.host },
    }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      let sent = 0;
      answer.on('data', (chunk: Buffer) => {
        if (rule?.kind === 'cut') {
          const room = rule.bytes - sent;
          if (room <= 0) return;
          const slice = chunk.subarray(0, room);
          sent += slice.length;
          res.write(slice);
          if (sent >= rule.bytes) {
            answer.pause();
            this.stalledTransfers.add(answer);
            this.stalledTransfers.add(res);
            this.stalled?.();
          }
          return;
        }
        res.write(chunk);
      });
      answer.on('end', () => {
        if (rule?.kind === 'cut' && sent >= rule.bytes) return;
        res.end();
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
}

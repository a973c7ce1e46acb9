import http from 'node:http';
import net from 'node:net';

/** Which requests a rule applies to. */
export interface RequestMatch {
  method: 'GET' | 'PUT' | 'POST';
}

/**
 * An HTTP proxy in front of the service's signed object URLs (PUBLIC_BASE_URL points at it), to
 * stand for a network that fails mid-transfer. Every request is forwarded unless a rule says:
 * - `holdAfter`: the first `count` matching requests go through, later ones hang unanswered (a
 *   transfer stuck mid-way, for a test to kill the client at a known point);
 * - `cutAfterBytes`: a matching response stops after `bytes` bytes of its body and hangs;
 * - `failNext`: the next `count` matching requests lose their connection before any answer;
 * - `loseAnswerNext`: the next `count` matching requests reach the service, and their connection is
 *   lost when the answer comes back (the request acted on, its answer never seen by the client).
 * It also forwards API requests, when the client is pointed at it.
 */
export class TransferProxy {
  private target: URL | undefined;
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();
  private rule: { kind: 'hold'; match: RequestMatch; remaining: number } | { kind: 'cut'; match: RequestMatch; bytes: number } | { kind: 'fail' | 'lose-answer'; match: RequestMatch; remaining: number } | undefined;
  private stalled: (() => void) | undefined;
  /** Transfers a rule stalled: ended when the rule is cleared (their client is gone by then). */
  private readonly stalledTransfers = new Set<{ destroy(): void }>();
  /** The Range header of every GET, in order (null when absent). */
  readonly ranges: (string | null)[] = [];
  /** PUTs answered with a 2xx: the parts the store took. */
  storedPuts = 0;
  /** The Idempotency-Key header of every POST, in order (null when absent). */
  readonly idempotencyKeys: (string | null)[] = [];

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

  /** Resolves when a rule has stalled a transfer (a request held, or a response cut). */
  holdAfter(match: RequestMatch, count: number): Promise<void> {
    this.rule = { kind: 'hold', match, remaining: count };
    return this.stall();
  }

  cutAfterBytes(match: RequestMatch, bytes: number): Promise<void> {
    this.rule = { kind: 'cut', match, bytes };
    return this.stall();
  }

  failNext(match: RequestMatch, count: number): void {
    this.rule = { kind: 'fail', match, remaining: count };
  }

  loseAnswerNext(match: RequestMatch, count: number): void {
    this.rule = { kind: 'lose-answer', match, remaining: count };
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
    if (req.method === 'POST') this.idempotencyKeys.push(typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null);
    const rule = this.rule && req.method === this.rule.match.method ? this.rule : undefined;
    if (rule?.kind === 'fail' && rule.remaining > 0) {
      rule.remaining -= 1;
      req.socket.destroy();
      return;
    }
    let loseAnswer = false;
    if (rule?.kind === 'lose-answer' && rule.remaining > 0) {
      rule.remaining -= 1;
      loseAnswer = true;
    }
    if (rule?.kind === 'hold') {
      if (rule.remaining <= 0) {
        // Never answered: the client waits until it gives up or is killed.
        this.stalledTransfers.add(req.socket);
        this.stalled?.();
        return;
      }
      rule.remaining -= 1;
    }
    const target = this.target as URL;
    const upstream = http.request({
      host: target.hostname, port: target.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: target.host },
    }, (answer) => {
      if (loseAnswer) {
        answer.resume();
        answer.once('end', () => req.socket.destroy());
        return;
      }
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
        if (req.method === 'PUT' && (answer.statusCode ?? 500) < 300) this.storedPuts += 1;
        res.end();
      });
    });
    upstream.on('error', () => res.destroy());
    // A client gone mid-body (killed): the service's request ends too, instead of waiting for the rest.
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
    req.pipe(upstream);
  }
}

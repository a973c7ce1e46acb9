import type { Socket } from 'node:net';

/**
 * What Node's HTTP server keeps on a connection's parser (node's lib/_http_server.js and
 * src/node_http_parser.cc, Node 20): whether it reads the socket natively, the bytes of the read it
 * is executing, and the callback it makes after executing each read, under HTTPParser.kOnExecute.
 */
interface ConnectionParser {
  _consumed?: boolean;
  getCurrentBuffer?: () => Buffer;
  [key: number]: unknown;
}

// Node's HTTP internals have no public name for the callback's key; node:_http_common exports it.
const { HTTPParser } = require('node:_http_common') as { HTTPParser?: { kOnExecute?: unknown } };
const ON_EXECUTE = typeof HTTPParser?.kOnExecute === 'number' ? HTTPParser.kOnExecute : undefined;

const parserOf = (socket: Socket) => (socket as Socket & { parser?: ConnectionParser }).parser;

/**
 * Calls `seen` with the first bytes a connection of Node's HTTP server reads. Node's parser reads
 * its connections in C++, and a 'data' listener on one would take it off that path for the
 * connection's whole life: every later request would then pass through the socket's JavaScript
 * stream (its read callback, the readable's buffer, a 'data' event) before the parser, as the hot
 * routes' CPU profile showed (bench/README.md). So the bytes are taken where the parser hands its
 * first read to JavaScript anyway, its after-execute callback, which is then given back. A
 * connection the parser does not read natively (or a Node without that callback) gets the listener,
 * which costs it nothing more. Call from the server's 'connection' listener, which runs after
 * Node's own has set the parser up.
 */
export function onFirstRead(socket: Socket, seen: (chunk: Buffer) => void): void {
  const parser = parserOf(socket);
  const key = ON_EXECUTE;
  const execute = key === undefined ? undefined : parser?.[key];
  const currentBuffer = parser?.getCurrentBuffer;
  if (key === undefined || parser?._consumed !== true || typeof currentBuffer !== 'function' || typeof execute !== 'function') {
    socket.once('data', seen);
    return;
  }
  parser[key] = function firstExecute(this: unknown, ...args: unknown[]) {
    parser[key] = execute;
    seen(currentBuffer.call(parser));
    return execute.apply(this, args);
  };
}

/** Whether Node's parser reads `socket` natively (for the test that keeps it so). */
export function parsedNatively(socket: Socket): boolean {
  return parserOf(socket)?._consumed === true;
}

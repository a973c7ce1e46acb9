/**
 * A hashing thread (started by HashingThreads): sleeps on its doorbell; when rung, takes the
 * messages posted to it, then hashes what its lanes' rings hold, a piece at a time per lane in turn,
 * storing after each piece how far the lane got and waking a main thread waiting for room.
 */
import { BinaryToTextEncoding, createHash, Hash } from 'node:crypto';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { FromHashThread, HASHED_CELLS, HashThreadData, RING_HEADER_BYTES, ToHashThread, WRITTEN_CELL } from './messages';

/** Bytes hashed between two reports of progress: the main thread refills the ring behind the hash. */
const PIECE_BYTES = 256 * 1024;
/** A sleeping thread looks at its messages at least this often, rung or not. */
const SLEEP_MS = 1000;

interface Lane {
  hash: Hash;
  encoding: BinaryToTextEncoding;
  bytes: Uint8Array;
  cells: Int32Array;
  cell: number;
  hashed: number;
  ending: boolean;
}

const port = parentPort;
if (!port) throw new Error('hash-thread runs as a worker thread');
const doorbell = new Int32Array((workerData as HashThreadData).doorbell);
const lanes = new Map<number, Lane>();

function answer(message: FromHashThread): void {
  port?.postMessage(message);
}

function take(message: ToHashThread): void {
  switch (message.kind) {
    case 'start': {
      const hash = createHash(message.algorithm);
      if (message.seed) hash.update(message.seed);
      lanes.set(message.lane, {
        hash,
        encoding: message.encoding,
        bytes: new Uint8Array(message.ring, RING_HEADER_BYTES),
        cells: new Int32Array(message.ring, 0, RING_HEADER_BYTES / 4),
        cell: HASHED_CELLS + message.cell,
        hashed: 0,
        ending: false,
      });
      break;
    }
    case 'end': {
      const lane = lanes.get(message.lane);
      if (lane) lane.ending = true;
      break;
    }
    case 'drop':
      lanes.delete(message.lane);
      answer({ kind: 'dropped', lane: message.lane });
      break;
  }
}

/** Hashes one piece of what the lane's ring holds; answers its digest once it has ended and all is hashed. Whether it did anything. */
function step(id: number, lane: Lane): boolean {
  const copied = (Atomics.load(lane.cells, WRITTEN_CELL) - lane.hashed) >>> 0;
  if (copied === 0) {
    if (!lane.ending) return false;
    lanes.delete(id);
    answer({ kind: 'digest', lane: id, digest: lane.hash.digest(lane.encoding) });
    return true;
  }
  const capacity = lane.bytes.length;
  const start = lane.hashed % capacity;
  const length = Math.min(copied, capacity - start, PIECE_BYTES);
  lane.hash.update(lane.bytes.subarray(start, start + length));
  lane.hashed += length;
  Atomics.store(lane.cells, lane.cell, lane.hashed | 0);
  Atomics.notify(lane.cells, lane.cell);
  return true;
}

answer({ kind: 'ready' });
for (;;) {
  // Read before looking: a ring after this read wakes the wait below at once.
  const rung = Atomics.load(doorbell, 0);
  for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port)) take(received.message as ToHashThread);
  let worked = false;
  for (const [id, lane] of lanes) worked = step(id, lane) || worked;
  if (!worked) Atomics.wait(doorbell, 0, rung, SLEEP_MS);
}

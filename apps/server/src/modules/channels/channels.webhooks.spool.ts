/**
 * A webhook body whose credential covers the body itself (Wuzapi's HMAC of the raw bytes): it cannot be checked
 * before the last byte, so it is read while the signature is computed, and handed on only when the signature
 * matches. Until then a request holds at most `memoryBytes` in memory: the first bytes are kept there, the rest
 * goes to a temporary file (mode 0600, removed before this returns), so six unauthenticated 30 MiB posts cost six
 * files, not 180 MiB of memory. Nothing is parsed before the signature matched.
 */
import { open, mkdtemp, readFile, rm, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BodySignature } from './channels.adapter.js';

export class BodyTooLargeError extends Error {
  constructor() {
    super('webhook body too large');
    this.name = 'BodyTooLargeError';
  }
}

export interface SpoolLimits {
  /** Bytes kept in memory before the rest goes to a file. */
  memoryBytes: number;
  /** The largest body read at all (BodyTooLargeError past it). */
  maxBytes: number;
}

/** What a spool read: the body when its signature matched, null when not (the bytes are gone either way). */
export interface SignedBody {
  body: Buffer | null;
  size: number;
  /** Whether the body outgrew memory and went through a file (tests and logs). */
  spilled: boolean;
}

export async function readSignedBody(
  source: AsyncIterable<unknown>,
  signature: BodySignature,
  limits: SpoolLimits,
): Promise<SignedBody> {
  let size = 0;
  let head: Buffer[] = [];
  let dir: string | null = null;
  let filePath = '';
  let file: FileHandle | null = null;
  try {
    for await (const piece of source) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : (piece as Buffer);
      size += chunk.length;
      if (size > limits.maxBytes) throw new BodyTooLargeError();
      signature.update(chunk);
      if (!file && size <= limits.memoryBytes) {
        head.push(chunk);
        continue;
      }
      if (!file) {
        dir = await mkdtemp(path.join(os.tmpdir(), 'conversa-webhook-'));
        filePath = path.join(dir, 'body');
        file = await open(filePath, 'wx', 0o600);
        for (const kept of head) await file.write(kept);
        head = [];
      }
      // Awaiting the write before the next chunk is read keeps the socket paused meanwhile (back pressure).
      await file.write(chunk);
    }
    if (!signature.matches()) return { body: null, size, spilled: dir !== null };
    if (!file || !dir) return { body: Buffer.concat(head, size), size, spilled: false };
    await file.close();
    file = null;
    return { body: await readFile(filePath), size, spilled: true };
  } finally {
    await file?.close().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A verified body as the stream Fastify's parsers read (`receivedEncodedLength`: the bytes received). */
export function bodyStream(body: Buffer): Readable {
  const stream = Readable.from([body], { objectMode: false });
  return Object.assign(stream, { receivedEncodedLength: body.length });
}

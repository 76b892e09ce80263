/**
 * The signed-body spool: the signature sees every byte, memory holds at most `memoryBytes`, the rest goes through a
 * private temporary file that is gone when the read ends, and the body is handed on only when the signature matches.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BodySignature } from './channels.adapter.js';
import { BodyTooLargeError, readSignedBody } from './channels.webhooks.spool.js';

const KEY = 'k'.repeat(43);
const hmacOf = (data: Buffer) => crypto.createHmac('sha256', KEY).update(data).digest('hex');

/** A signature like Wuzapi's; `seen` records, at each chunk, whether the spool's file exists and its mode. */
function signature(expected: string, seen: { files: string[]; modes: number[] }): BodySignature {
  const hmac = crypto.createHmac('sha256', KEY);
  return {
    update(chunk) {
      hmac.update(chunk);
      for (const dir of spoolDirs()) {
        for (const name of fs.readdirSync(dir)) {
          const file = path.join(dir, name);
          seen.files.push(file);
          seen.modes.push(fs.statSync(file).mode & 0o777);
        }
      }
    },
    matches: () => hmac.digest('hex') === expected,
  };
}
const spoolDirs = () =>
  fs
    .readdirSync(os.tmpdir())
    .filter((name) => name.startsWith('conversa-webhook-'))
    .map((name) => path.join(os.tmpdir(), name));

async function* chunks(data: Buffer, size = 64 * 1024) {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

describe('readSignedBody', () => {
  const body = crypto.randomBytes(3 * 256 * 1024 + 17);

  it('keeps a body under the memory bound in memory and hands it on when the signature matches', async () => {
    const seen = { files: [] as string[], modes: [] as number[] };
    const small = body.subarray(0, 100_000);
    const read = await readSignedBody(chunks(small), signature(hmacOf(small), seen), {
      memoryBytes: 256 * 1024,
      maxBytes: 1 << 20,
    });
    expect(read).toMatchObject({ spilled: false, size: small.length });
    expect(read.body!.equals(small)).toBe(true);
    expect(seen.files).toEqual([]);
  });

  it('sends the rest of a larger body through a 0600 file, removed once read', async () => {
    const before = new Set(spoolDirs());
    const seen = { files: [] as string[], modes: [] as number[] };
    const read = await readSignedBody(chunks(body), signature(hmacOf(body), seen), {
      memoryBytes: 256 * 1024,
      maxBytes: 1 << 20,
    });
    expect(read).toMatchObject({ spilled: true, size: body.length });
    expect(read.body!.equals(body)).toBe(true);
    expect(seen.files.length).toBeGreaterThan(0);
    expect(new Set(seen.modes)).toEqual(new Set([0o600]));
    expect(seen.files.some((file) => fs.existsSync(file))).toBe(false);
    expect(spoolDirs().filter((dir) => !before.has(dir))).toEqual([]);
  });

  it('hands on nothing when the signature does not match, and leaves no file', async () => {
    const seen = { files: [] as string[], modes: [] as number[] };
    const read = await readSignedBody(chunks(body), signature('0'.repeat(64), seen), {
      memoryBytes: 256 * 1024,
      maxBytes: 1 << 20,
    });
    expect(read).toMatchObject({ body: null, spilled: true });
    expect(seen.files.length).toBeGreaterThan(0);
    expect(seen.files.some((file) => fs.existsSync(file))).toBe(false);
  });

  it('stops at maxBytes with BodyTooLargeError, and leaves no file', async () => {
    const seen = { files: [] as string[], modes: [] as number[] };
    await expect(
      readSignedBody(chunks(body), signature(hmacOf(body), seen), { memoryBytes: 64 * 1024, maxBytes: 512 * 1024 }),
    ).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(seen.files.some((file) => fs.existsSync(file))).toBe(false);
  });
});

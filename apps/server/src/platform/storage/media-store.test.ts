/** The media stores: local disk (atomic writes, safe keys) and S3-compatible (signed requests to a local peer). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalMediaStore, createMediaStore, newMediaKey, readAll } from './media-store.js';

describe('local media store', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'media-'));
  const store = createLocalMediaStore(root);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('puts, gets and deletes under <tenant>/', async () => {
    const key = newMediaKey(7, 'Foto Final.PNG');
    expect(key).toMatch(/^7\/[0-9a-f-]{36}\.png$/);
    expect(await store.put(key, Readable.from([Buffer.from('abc'), Buffer.from('def')]), 'image/png')).toEqual({
      size: 6,
    });
    const got = await store.get(key);
    expect(got!.size).toBe(6);
    expect((await readAll(got!.stream)).toString()).toBe('abcdef');
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await store.delete(key);
  });

  it('a file removed right after get() still reads whole; a folder is no file', async () => {
    const key = newMediaKey(7, 'doc.pdf');
    await store.put(key, Buffer.from('%PDF-1.4'), 'application/pdf');
    const got = await store.get(key);
    fs.rmSync(path.join(root, key));
    expect((await readAll(got!.stream)).toString()).toBe('%PDF-1.4');
    expect(await store.get(key)).toBeNull();
    fs.mkdirSync(path.join(root, '7', 'folder.bin'));
    expect(await store.get('7/folder.bin')).toBeNull();
    fs.rmdirSync(path.join(root, '7', 'folder.bin'));
  });

  it('writes files 0600 and folders 0700, also folders an older install made 0755', async () => {
    const older = fs.mkdtempSync(path.join(os.tmpdir(), 'media-modes-'));
    try {
      fs.chmodSync(older, 0o755);
      fs.mkdirSync(path.join(older, '8'), { mode: 0o755 });
      fs.chmodSync(path.join(older, '8'), 0o755);
      const modes = createLocalMediaStore(older);
      await modes.put('8/a.bin', Buffer.from('a'), 'application/octet-stream');
      await modes.put('9/b.bin', Readable.from([Buffer.from('b')]), 'application/octet-stream');
      const mode = (file: string) => fs.statSync(path.join(older, file)).mode & 0o777;
      expect(mode('.')).toBe(0o700);
      expect(mode('8')).toBe(0o700);
      expect(mode('9')).toBe(0o700);
      expect(mode('8/a.bin')).toBe(0o600);
      expect(mode('9/b.bin')).toBe(0o600);
    } finally {
      fs.rmSync(older, { recursive: true, force: true });
    }
  });

  it('refuses path-like keys and leaves nothing behind a failed write', async () => {
    await expect(store.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow('invalid media key');
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('7/broken.bin', failing, 'application/octet-stream')).rejects.toThrow('client went away');
    expect(fs.readdirSync(path.join(root, '7'))).toEqual([]);
  });
});

describe('S3-compatible media store', () => {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const seen: string[] = [];
  let server: http.Server;
  let endpoint: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const auth = String(req.headers.authorization ?? '');
        const hash = crypto.createHash('sha256').update(body).digest('hex');
        // A signed request: SigV4 header with our key and scope, and the payload hash it signed.
        const signed =
          /^AWS4-HMAC-SHA256 Credential=AKTEST\/\d{8}\/sa-east-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/.test(
            auth,
          ) && req.headers['x-amz-content-sha256'] === hash;
        seen.push(`${req.method} ${req.url} ${signed ? 'signed' : 'unsigned'}`);
        if (!signed) return res.writeHead(403).end();
        const key = req.url!;
        if (req.method === 'PUT') {
          objects.set(key, { body, type: String(req.headers['content-type']) });
          return res.writeHead(200).end();
        }
        const found = objects.get(key);
        if (req.method === 'DELETE') {
          objects.delete(key);
          return res.writeHead(204).end();
        }
        if (!found) return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length }).end(found.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('stores, reads and deletes objects with signed requests', async () => {
    const store = createMediaStore({
      root: '/nonexistent',
      s3: { endpoint, bucket: 'media', region: 'sa-east-1', accessKeyId: 'AKTEST', secretAccessKey: 'shh' },
    });
    const key = '3/0c7e1b8e-5b0a-4a53-9d3b-6f1f4f3b2a10.ogg';
    expect(await store.put(key, Buffer.from('OggS audio'), 'audio/ogg')).toEqual({ size: 10 });
    expect(objects.get(`/media/${key}`)).toEqual({ body: Buffer.from('OggS audio'), type: 'audio/ogg' });
    const got = await store.get(key);
    expect(got!.size).toBe(10);
    expect((await readAll(got!.stream)).toString()).toBe('OggS audio');
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    expect(seen.every((line) => line.endsWith(' signed'))).toBe(true);
    expect(seen.map((line) => line.split(' ')[0])).toEqual(['PUT', 'GET', 'DELETE', 'GET']);
  });
});

/**
 * Unauthenticated gateway webhooks cost bounded memory (issue 22, item 4): six 30 MiB posts arrive at once at the
 * built server's Evolution and Wuzapi webhook URLs, none with a valid credential (a wrong header secret, a wrong or
 * missing HMAC, an unknown channel id), the bodies streaming while the test reads the server's resident memory
 * (VmRSS of /proc/<pid>/status) every 25 ms. It must stay under 300 MB (before the fix, six such posts took the server
 * from 161 to 555 MB), every post must be refused with the same 401, and the server must stay up. The worst case is
 * Wuzapi's: its HMAC covers the body, so a forged signature is only known to be wrong after the last byte (the body
 * is spooled to a file meanwhile, channels.webhooks.spool.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type ThrowawayDatabase } from './support/postgres.js';
import { api, loginSuperadmin, serverProcess, type ServerProcess } from './support/server.js';

const BODY_BYTES = 30 * 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 'x');
const RSS_LIMIT_BYTES = 300 * 1024 * 1024;

let db: ThrowawayDatabase;
let server: ServerProcess;
let evoId: number;
let meowId: number;

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kib) throw new Error('no VmRSS in /proc status');
  return Number(kib[1]) * 1024;
}

/**
 * Streams a 30 MiB JSON body in 256 KiB chunks (back pressure respected) and answers the status the server gave, or
 * the status it gave before it closed the connection on the rest of the body.
 */
function postLarge(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered: { status: number; body: string } | undefined;
    const request = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(BODY_BYTES), ...headers },
    });
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        answered = { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() };
        resolve(answered);
      });
    });
    // The server may close the connection on a refused body: the answer it sent first is the result.
    request.on('error', (error) => (answered ? resolve(answered) : setTimeout(() => reject(error), 200)));
    const head = Buffer.from('{"padding":"');
    const tail = Buffer.from('"}');
    let sent = 0;
    const write = () => {
      if (sent === 0) {
        request.write(head);
        sent = head.length;
      }
      while (sent < BODY_BYTES - tail.length) {
        const size = Math.min(CHUNK.length, BODY_BYTES - tail.length - sent);
        sent += size;
        if (!request.write(size === CHUNK.length ? CHUNK : CHUNK.subarray(0, size)))
          return void request.once('drain', write);
      }
      request.end(tail);
    };
    write();
  });
}

beforeAll(async () => {
  db = await createDatabase('conversa_rel_webhook_memory');
  server = await serverProcess({ DATABASE_URL: db.url });
  await server.start();
  const auth = await loginSuperadmin(server.baseUrl);
  // Gateways that are never asked anything: the channels only have to exist for their webhook URLs.
  const create = async (body: object) => {
    const res = await api<{ id: number }>(server.baseUrl, auth, 'POST', '/whatsapp', body);
    if (res.status !== 201) throw new Error(`channel not created: ${res.status}`);
    return res.json.id;
  };
  evoId = await create({ name: 'Evo Memoria', type: 'evo', remotePath: 'http://127.0.0.1:9', tokenAPI: 'k' });
  meowId = await create({ name: 'Wuz Memoria', type: 'meow', remotePath: 'http://127.0.0.1:9', tokenAPI: 't' });
});

afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

describe('six unauthenticated 30 MiB gateway webhooks at once', () => {
  it('keep the server under 300 MB resident, are all refused alike, and the server stays up', async () => {
    const pid = server.pid()!;
    const base = `${server.baseUrl}/api/webhooks`;
    const forged = crypto.randomBytes(32).toString('hex');
    const before = rssOf(pid);
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, rssOf(pid));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const answers = await Promise.all([
      // Wuzapi with a forged HMAC: read to the end (through a file) before it is known to be wrong.
      postLarge(`${base}/meow/${meowId}`, { 'x-hmac-signature': forged }),
      postLarge(`${base}/meow/${meowId}`, { 'x-hmac-signature': forged }),
      postLarge(`${base}/meow/${meowId}`, { 'x-hmac-signature': forged }),
      // Wuzapi without a signature, Evolution with a wrong secret, an unknown channel: refused before the body.
      postLarge(`${base}/meow/${meowId}`, {}),
      postLarge(`${base}/evo/${evoId}`, { 'x-conversa-webhook-secret': 'not-the-secret' }),
      postLarge(`${base}/evo/999999/messages-upsert`, {}),
    ]);
    sampling = false;
    await sampler;
    const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
    console.info(`webhook-memory: resident ${mb(before)} before, ${mb(peak)} at most`);
    expect(peak, `resident ${mb(before)} before, ${mb(peak)} at most while the posts streamed`).toBeLessThan(
      RSS_LIMIT_BYTES,
    );
    expect(server.alive(), server.logTail()).toBe(true);
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    }
  });
});

/**
 * Sessions owned across nodes, with two built server processes on one PostgreSQL database and Baileys' socket replaced
 * by the fake (BAILEYS_SOCKET_MODULE) that talks to the simulator. A channel is connected through the QR (the
 * simulator's phone scans it), an agent's message is sent by the owner, the owner is killed with SIGKILL, the other
 * node takes the session over with the stored auth (no new QR) within 30 s, and a message sent after the kill is
 * sent by the new owner. Each message reaches the simulator exactly once.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBaileysSimulator,
  type BaileysSimulator,
} from '../src/modules/channels/providers/baileys/baileys.simulator.js';
import { createDatabase, query, type ThrowawayDatabase } from './support/postgres.js';
import { sleep } from './support/ports.js';
import { api, loginSuperadmin, SERVER_ENTRY, serverProcess, type ServerProcess } from './support/server.js';

const FAKE_SOCKET = path.join(path.dirname(SERVER_ENTRY), 'modules/channels/providers/baileys/baileys.fake-socket.js');
const CUSTOMER = '5511977776666';

let sim: BaileysSimulator;
let db: ThrowawayDatabase;
let nodeA: ServerProcess;
let nodeB: ServerProcess;

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 40_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const textsSent = (channelId: number) =>
  sim.callsOf('sendMessage', channelId).map((call) => (call.args[1] as { text?: string }).text);

beforeAll(async () => {
  sim = await startBaileysSimulator();
  db = await createDatabase('conversa_rel_sessions');
  const shared = {
    DATABASE_URL: db.url,
    BAILEYS_SOCKET_MODULE: FAKE_SOCKET,
    BAILEYS_SIMULATOR_URL: sim.url,
    // Nodes that share a database share these (another node resumes a session with the key).
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SESSION_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64url'),
  };
  nodeA = await serverProcess(shared);
  nodeB = await serverProcess(shared);
  await nodeA.start();
}, 120_000);

afterAll(async () => {
  await nodeA?.stop().catch(() => undefined);
  await nodeB?.stop();
  await db?.drop();
  await sim?.close();
});

describe('a Baileys session moves to the surviving node', () => {
  it('takes over within 30 s with the stored auth, and each message is sent exactly once', async () => {
    const auth = await loginSuperadmin(nodeA.baseUrl);
    const created = await api<{ id: number }>(nodeA.baseUrl, auth, 'POST', '/whatsapp', {
      name: 'Zap',
      type: 'baileys',
    });
    expect(created.status).toBe(201);
    const channelId = created.json.id;
    expect((await api(nodeA.baseUrl, auth, 'POST', `/whatsappsession/${channelId}`)).status).toBe(200);

    // QR login on node A: the QR reaches the channel, the phone scans it, the session connects.
    await until('the QR code', async () => {
      const { json } = await api<{ status: string; qrcode: string | null }>(
        nodeA.baseUrl,
        auth,
        'GET',
        `/whatsapp/${channelId}`,
      );
      return json.status === 'qrcode' && json.qrcode;
    });
    expect(sim.scan(channelId, { number: '5511988887777', name: 'Loja' })).toBe(true);
    await until('CONNECTED', async () => {
      const { json } = await api<{ status: string }>(nodeA.baseUrl, auth, 'GET', `/whatsapp/${channelId}`);
      return json.status === 'CONNECTED';
    });
    const ownerA = await query<{ owner: string }>(db.url, 'select owner from channel_sessions where channel_id = $1', [
      channelId,
    ]);
    expect(ownerA[0]!.owner).toMatch(/:\d+:/);

    // The second node joins; it must not take a live session.
    await nodeB.start();
    const contact = await api<{ id: number }>(nodeA.baseUrl, auth, 'POST', '/contacts', {
      name: 'Cliente',
      number: CUSTOMER,
    });
    expect([200, 201]).toContain(contact.status);
    const ticket = await api<{ id: number }>(nodeA.baseUrl, auth, 'POST', '/tickets', {
      contactId: contact.json.id,
      channelId,
      userId: auth.userId,
      status: 'open',
    });
    expect([200, 201]).toContain(ticket.status);

    // Sent on B's HTTP, delivered by A (the owner works the session's queue).
    expect((await api(nodeB.baseUrl, auth, 'POST', `/messages/${ticket.json.id}`, { body: 'antes' })).status).toBe(200);
    await until('the first send', async () => textsSent(channelId).includes('antes'));
    const stillA = await query<{ owner: string }>(db.url, 'select owner from channel_sessions where channel_id = $1', [
      channelId,
    ]);
    expect(stillA[0]!.owner).toBe(ownerA[0]!.owner);

    const socketsBefore = sim.sockets.filter((s) => s.channelId === channelId).length;
    const killedAt = Date.now();
    await nodeA.kill();
    const moved = await until(
      'the takeover',
      async () => {
        const rows = await query<{ owner: string | null }>(
          db.url,
          'select owner from channel_sessions where channel_id = $1 and lease_until > now()',
          [channelId],
        );
        const owner = rows[0]?.owner;
        return owner && owner !== ownerA[0]!.owner ? owner : null;
      },
      40_000,
    );
    const socket = await sim.waitForSocket(channelId, { since: killedAt, timeoutMs: 30_000 });
    const takeoverMs = Date.now() - killedAt;
    console.log(`takeover: lease moved to ${moved}, socket reopened ${takeoverMs} ms after the kill`);
    expect(takeoverMs).toBeLessThan(30_000);
    // Resumed with the stored creds: registered, no new QR.
    expect(socket.creds.registered).toBe(true);
    expect(sim.sockets.filter((s) => s.channelId === channelId).length).toBe(socketsBefore + 1);
    await until('CONNECTED again', async () => {
      const { json } = await api<{ status: string; qrcode: string | null }>(
        nodeB.baseUrl,
        auth,
        'GET',
        `/whatsapp/${channelId}`,
      );
      return json.status === 'CONNECTED' && json.qrcode === null;
    });

    expect((await api(nodeB.baseUrl, auth, 'POST', `/messages/${ticket.json.id}`, { body: 'depois' })).status).toBe(
      200,
    );
    await until('the second send', async () => textsSent(channelId).includes('depois'));
    await sleep(3_000);
    expect(textsSent(channelId).filter((text) => text === 'antes')).toHaveLength(1);
    expect(textsSent(channelId).filter((text) => text === 'depois')).toHaveLength(1);
    const rows = await query<{ body: string; status: string; message_id: string | null }>(
      db.url,
      'select body, status, message_id from messages where ticket_id = $1 order by id',
      [ticket.json.id],
    );
    expect(rows.map((r) => [r.body, r.status, Boolean(r.message_id)])).toEqual([
      ['antes', 'sended', true],
      ['depois', 'sended', true],
    ]);
  }, 180_000);
});

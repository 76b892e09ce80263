/**
 * The fake socket and the simulator together (what the driver tests and the two-process test stand on): the library's
 * event shapes arrive over HTTP, calls are recorded, creds are reported, media is served encrypted as WhatsApp does.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BufferJSON,
  DisconnectReason,
  downloadContentFromMessage,
  initAuthCreds,
  type BaileysEventMap,
  type ConnectionState,
} from 'baileys';
import { loadConfig } from '../../../../config.js';
import { makeWASocket } from './baileys.fake-socket.js';
import { startBaileysSimulator, type BaileysSimulator } from './baileys.simulator.js';
import { loadBaileysSocketFactory, type BaileysSocket } from './baileys.socket.js';

let sim: BaileysSimulator;
beforeAll(async () => {
  sim = await startBaileysSimulator();
});
afterAll(async () => {
  await sim.close();
});

const noKeys = { get: async () => ({}), set: async () => undefined };

function record(socket: BaileysSocket) {
  const updates: Partial<ConnectionState>[] = [];
  const creds: BaileysEventMap['creds.update'][] = [];
  socket.ev.on('connection.update', (u) => updates.push(u));
  socket.ev.on('creds.update', (u) => creds.push(u));
  return { updates, creds };
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('fake Baileys socket over the simulator', () => {
  it('a fresh socket gets a QR; the scan logs in (creds.update with me) and asks for a restart (515)', async () => {
    const creds = initAuthCreds();
    const socket = makeWASocket({ auth: { creds, keys: noKeys }, channelId: 1, simulatorUrl: sim.url });
    const seen = record(socket);
    await until(() => seen.updates.some((u) => u.qr));
    expect(seen.updates.find((u) => u.qr)!.qr).toMatch(/^2@sim-qr-1-/);
    expect(sim.sockets.at(-1)!.creds.me).toBeNull();

    expect(sim.scan(1, { number: '5561999998888', name: 'Loja' })).toBe(true);
    await until(() => seen.updates.some((u) => u.connection === 'close'));
    expect(seen.creds[0]!.me!.id).toBe('5561999998888:7@s.whatsapp.net');
    // Like the library, the socket merged the update into the auth state it was given.
    expect(creds.me!.id).toBe('5561999998888:7@s.whatsapp.net');
    expect(socket.user!.id).toBe('5561999998888:7@s.whatsapp.net');
    const close = seen.updates.find((u) => u.connection === 'close')!;
    expect((close.lastDisconnect!.error as { output: { statusCode: number } }).output.statusCode).toBe(
      DisconnectReason.restartRequired,
    );

    // The reopen carries the logged-in creds: resumed, no QR.
    const again = makeWASocket({ auth: { creds, keys: noKeys }, channelId: 1, simulatorUrl: sim.url });
    const seenAgain = record(again);
    await until(() => seenAgain.updates.some((u) => u.connection === 'open'));
    expect(seenAgain.updates.some((u) => u.qr)).toBe(false);
    const opens = sim.sockets.filter((s) => s.channelId === 1);
    expect(opens[1]!.creds.me!.id).toBe('5561999998888:7@s.whatsapp.net');
    expect(opens[1]!.creds.noiseKeyPublic).toBe(Buffer.from(creds.noiseKey.public).toString('base64'));

    const sent = await again.sendMessage('5561999998888@s.whatsapp.net', { text: 'oi' });
    expect(sent!.key.id).toMatch(/^3EB0SIM/);
    expect(sim.callsOf('sendMessage', 1).at(-1)!.args.slice(0, 2)).toEqual([
      '5561999998888@s.whatsapp.net',
      { text: 'oi' },
    ]);

    await again.logout();
    expect(sim.callsOf('logout', 1)).toHaveLength(1);
    const last = seenAgain.updates.at(-1)!;
    expect((last.lastDisconnect!.error as { output: { statusCode: number } }).output.statusCode).toBe(
      DisconnectReason.loggedOut,
    );
  });

  it('delivers pushed events in the library shape, Buffers included, and answers onWhatsApp', async () => {
    const socket = makeWASocket({
      auth: { creds: initAuthCreds(), keys: noKeys },
      channelId: 2,
      simulatorUrl: sim.url,
    });
    const upserts: BaileysEventMap['messages.upsert'][] = [];
    socket.ev.on('messages.upsert', (u) => upserts.push(u));
    await sim.waitForSocket(2);
    const mediaKey = Buffer.from('0123456789abcdef0123456789abcdef');
    sim.emit(2, 'messages.upsert', {
      type: 'notify',
      messages: [{ key: { remoteJid: '1@s.whatsapp.net', id: 'A1' }, message: { imageMessage: { mediaKey } } }],
    });
    await until(() => upserts.length === 1);
    expect(Buffer.isBuffer(upserts[0]!.messages[0]!.message!.imageMessage!.mediaKey)).toBe(true);

    sim.registered.set('5561999998888', '556199998888@s.whatsapp.net');
    expect(await socket.onWhatsApp('5561999998888@s.whatsapp.net', '5511000000000')).toEqual([
      { jid: '556199998888@s.whatsapp.net', exists: true },
      { jid: '5511000000000@s.whatsapp.net', exists: false },
    ]);
    sim.behaviour(2).failNext.sendMessage = 500;
    await expect(socket.sendMessage('1@s.whatsapp.net', { text: 'x' })).rejects.toMatchObject({
      output: { statusCode: 500 },
    });
    await socket.end(undefined);
  });

  it('serves media encrypted the way WhatsApp does (the library decrypts it)', async () => {
    const plain = Buffer.from('a voice note, in bytes'.repeat(50));
    const media = await sim.addMedia(plain, 'audio', 'audio/ogg; codecs=opus');
    const stream = await downloadContentFromMessage({ url: media.url, mediaKey: media.mediaKey }, 'audio');
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(plain)).toBe(true);
    const raw = Buffer.from(await (await fetch(media.url)).arrayBuffer());
    expect(raw.includes(plain.subarray(0, 16))).toBe(false);
  });

  it('is driven over HTTP by a test in another process', async () => {
    const socket = makeWASocket({
      auth: { creds: initAuthCreds(), keys: noKeys },
      channelId: 3,
      simulatorUrl: sim.url,
    });
    const seen = record(socket);
    await sim.waitForSocket(3);
    const post = (path: string, body: unknown) =>
      fetch(`${sim.url}/__simulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body, BufferJSON.replacer),
      }).then((r) => r.json() as Promise<{ ok: boolean }>);
    expect(await post('channels/3/disconnect', { statusCode: DisconnectReason.connectionReplaced })).toEqual({
      ok: true,
    });
    await until(() => seen.updates.some((u) => u.connection === 'close'));
    const sockets = (await (await fetch(`${sim.url}/__simulator/sockets?channel=3`)).json()) as { live: boolean }[];
    expect(sockets.map((s) => s.live)).toEqual([false]);
  });
});

describe('socket factory selection', () => {
  it('uses the library unless BAILEYS_SOCKET_MODULE names a module; validates both keys', async () => {
    expect(await loadBaileysSocketFactory(loadConfig({}))).toBeUndefined();
    expect(() => loadConfig({ BAILEYS_SOCKET_MODULE: 'relative/fake.js' })).toThrow(/BAILEYS_SOCKET_MODULE/);
    expect(() => loadConfig({ BAILEYS_SIMULATOR_URL: sim.url })).toThrow(/BAILEYS_SIMULATOR_URL needs/);
    const modulePath = fileURLToPath(new URL('./baileys.fake-socket.ts', import.meta.url));
    const factory = await loadBaileysSocketFactory(
      loadConfig({ BAILEYS_SOCKET_MODULE: modulePath, BAILEYS_SIMULATOR_URL: sim.url }),
    );
    const socket = factory!({ auth: { creds: initAuthCreds(), keys: noKeys } }, { channelId: 4 });
    expect((await sim.waitForSocket(4)).channelId).toBe(4);
    await socket.end(undefined);
  });
});

/**
 * The Baileys driver's profilePicture against the fake socket and the simulator: the library call it makes
 * (`profilePictureUrl(<jid>, 'image')`, the JID WhatsApp knows for the number), the CDN link it answers, and null
 * for WhatsApp's "no picture" (item-not-found) and "hidden" (not-authorized) answers; other failures are
 * ProviderErrors.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelCredentials, InboundEvent } from '../../channels.adapter.js';
import { ProviderError } from '../../channels.adapter.js';
import type { AuthStateStore, LiveSession } from '../../sessions/session-driver.js';
import { createBaileysDriver } from './baileys.driver.js';
import { makeWASocket } from './baileys.fake-socket.js';
import { startBaileysSimulator, type BaileysSimulator } from './baileys.simulator.js';

const CHANNEL = 700;
let sim: BaileysSimulator;
let session: LiveSession;

const memory = new Map<string, string>();
const store: AuthStateStore = {
  read: async (keys) => new Map(keys.filter((k) => memory.has(k)).map((k) => [k, memory.get(k)!] as const)),
  write: async (entries) => {
    for (const [k, v] of entries) {
      if (v === null) memory.delete(k);
      else memory.set(k, v);
    }
  },
  clear: async () => memory.clear(),
};

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out: ${what}`);
}

beforeAll(async () => {
  sim = await startBaileysSimulator();
  const driver = createBaileysDriver({
    makeSocket: (config, hint) => makeWASocket({ ...config, channelId: hint.channelId, simulatorUrl: sim.url }),
  });
  const events: InboundEvent[] = [];
  session = await driver.open({ id: CHANNEL, tenantId: 1, type: 'baileys' } as ChannelCredentials, {
    auth: store,
    emit: async (batch) => void events.push(...batch),
    pairingNumber: null,
    closed: () => undefined,
    callPolicy: async () => ({ reject: false, message: '' }),
    logger: pino({ level: 'silent' }),
  });
  const status = (s: string) => events.some((e) => e.kind === 'session' && e.status === s);
  await until(() => status('qrcode'), 'the QR');
  sim.scan(CHANNEL, { number: '5561999990000', name: 'Loja' });
  await until(() => status('CONNECTED'), 'CONNECTED');
});
afterAll(async () => {
  await session?.close();
  await sim?.close();
});

const pictureCalls = () => sim.callsOf('profilePictureUrl', CHANNEL).map((c) => c.args);

describe('Baileys profilePicture', () => {
  it("asks the library for the full picture of the number's JID (ninth digit as WhatsApp knows it)", async () => {
    sim.registered.set('5561988887777', '556188887777@s.whatsapp.net');
    sim.pictures.set('556188887777', { data: Buffer.from([0xff, 0xd8, 0xff]), mimetype: 'image/jpeg' });
    const before = pictureCalls().length;
    expect(await session.profilePicture!('5561988887777')).toBe(`${sim.url}/pictures/556188887777.jpg`);
    expect(pictureCalls().slice(before)).toEqual([['556188887777@s.whatsapp.net', 'image']]);
  });

  it('a group by its JID as given', async () => {
    sim.pictures.set('120363000000000077@g.us', { data: Buffer.from('GIF89a'), mimetype: 'image/gif' });
    const before = pictureCalls().length;
    expect(await session.profilePicture!('120363000000000077@g.us')).toBe(
      `${sim.url}/pictures/${encodeURIComponent('120363000000000077@g.us')}.jpg`,
    );
    expect(pictureCalls().slice(before)).toEqual([['120363000000000077@g.us', 'image']]);
  });

  it('null when WhatsApp has no picture (item-not-found) or hides it (not-authorized)', async () => {
    expect(await session.profilePicture!('5511911112222')).toBeNull();
    sim.pictures.set('5511933334444', 'hidden');
    expect(await session.profilePicture!('5511933334444')).toBeNull();
    expect(pictureCalls().slice(-2)).toEqual([
      ['5511911112222@s.whatsapp.net', 'image'],
      ['5511933334444@s.whatsapp.net', 'image'],
    ]);
  });

  it('another failure is a ProviderError (transient for a server error), not a missing picture', async () => {
    sim.pictures.set('5511944445555', { data: Buffer.from([0xff, 0xd8, 0xff]), mimetype: 'image/jpeg' });
    sim.behaviour(CHANNEL).failNext.profilePictureUrl = 500;
    const error = await session.profilePicture!('5511944445555').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).permanent).toBe(false);
  });
});

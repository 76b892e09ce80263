/**
 * The Baileys driver against the fake socket and the simulator (in-process): login by QR and by pairing code, the
 * auth state persisted and reused, DisconnectReason mapping, every kind of send with the exact socket content, edit,
 * delete, react, calls rejected, media downloaded and decrypted, inbound events through the context.
 */
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DisconnectReason, proto } from 'baileys';
import type { ChannelCredentials, InboundEvent, OutboundMessage } from '../../channels.adapter.js';
import { ProviderError } from '../../channels.adapter.js';
import type { AuthStateStore, LiveSession, SessionCloseReason, SessionContext } from '../../sessions/session-driver.js';
import { loadBaileysAuth } from './baileys.auth.js';
import { closeReasonOf, createBaileysDriver } from './baileys.driver.js';
import { makeWASocket } from './baileys.fake-socket.js';
import { startBaileysSimulator, type BaileysSimulator } from './baileys.simulator.js';

const logger = pino({ level: 'silent' });
let sim: BaileysSimulator;
let nextChannel = 100;
const open: LiveSession[] = [];

beforeAll(async () => {
  sim = await startBaileysSimulator();
});
afterEach(async () => {
  for (const session of open.splice(0)) await session.close();
});
afterAll(async () => {
  await sim.close();
});

class MemoryStore implements AuthStateStore {
  data = new Map<string, string>();
  writes = 0;
  cleared = 0;
  async read(keys: string[]) {
    return new Map(keys.filter((k) => this.data.has(k)).map((k) => [k, this.data.get(k)!] as [string, string]));
  }
  async write(entries: Map<string, string | null>) {
    this.writes++;
    for (const [k, v] of entries) {
      if (v === null) this.data.delete(k);
      else this.data.set(k, v);
    }
  }
  async clear() {
    this.cleared++;
    this.data.clear();
  }
}

interface Harness {
  id: number;
  store: MemoryStore;
  events: InboundEvent[];
  closed: SessionCloseReason[];
  policy: { reject: boolean; message: string };
  context: SessionContext;
}

function harness(pairingNumber: string | null = null, store = new MemoryStore(), id = nextChannel++): Harness {
  const h: Harness = {
    id,
    store,
    events: [],
    closed: [],
    policy: { reject: false, message: '' },
    context: undefined as unknown as SessionContext,
  };
  h.context = {
    auth: store,
    emit: async (events) => void h.events.push(...events),
    pairingNumber,
    closed: (reason) => void h.closed.push(reason),
    callPolicy: async () => h.policy,
    logger,
  };
  return h;
}

const channel = (id: number) => ({ id, tenantId: 1, type: 'baileys' }) as ChannelCredentials;
const driver = createBaileysDriver({
  makeSocket: (config, hint) => makeWASocket({ ...config, channelId: hint.channelId, simulatorUrl: sim.url }),
});

async function until(check: () => boolean, what = 'condition') {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out: ${what}`);
}
const sessionEvents = (h: Harness) => h.events.filter((e) => e.kind === 'session');

async function openSession(h: Harness): Promise<LiveSession> {
  const session = await driver.open(channel(h.id), h.context);
  open.push(session);
  return session;
}

/** A session logged in by QR: QR shown, the phone scans, the restart, CONNECTED. */
async function connected(number = '5561999998888'): Promise<{ h: Harness; session: LiveSession }> {
  const h = harness();
  const session = await openSession(h);
  await until(() => sessionEvents(h).some((e) => e.kind === 'session' && e.status === 'qrcode'), 'qr');
  sim.scan(h.id, { number, name: 'Loja' });
  await until(() => sessionEvents(h).some((e) => e.kind === 'session' && e.status === 'CONNECTED'), 'connected');
  return { h, session };
}

const outbound = (fields: Partial<OutboundMessage>): OutboundMessage => ({
  to: '5561999998888',
  body: '',
  mediaType: 'chat',
  media: null,
  replyToProviderMessageId: null,
  ...fields,
});

describe('login and auth state', () => {
  it('QR -> scan -> restart -> CONNECTED with the number and picture; creds stored; a reopen resumes without a QR', async () => {
    sim.pictures.set('5561999998888', { data: Buffer.from([0xff, 0xd8, 0xff, 0xe0]), mimetype: 'image/jpeg' });
    const { h, session } = await connected('5561999998888');
    const statuses = sessionEvents(h);
    expect(statuses[0]).toMatchObject({
      kind: 'session',
      status: 'qrcode',
      qrcode: expect.stringMatching(/^2@sim-qr/),
    });
    expect(statuses.at(-1)).toEqual({
      kind: 'session',
      status: 'CONNECTED',
      number: '5561999998888',
      profilePicUrl: `${sim.url}/pictures/5561999998888.jpg`,
    });
    // The restart after the login was handled by the driver: no close reached the host.
    expect(h.closed).toEqual([]);
    await until(() => h.store.data.has('creds') && h.store.data.get('creds')!.includes('5561999998888'), 'creds');
    const storedNoise = sim.sockets.filter((s) => s.channelId === h.id)[0]!.creds.noiseKeyPublic;

    await session.close();
    const again = harness(null, h.store, h.id);
    const since = Date.now();
    await openSession(again);
    await until(() => sessionEvents(again).some((e) => e.kind === 'session' && e.status === 'CONNECTED'), 'resumed');
    expect(sessionEvents(again).some((e) => e.kind === 'session' && e.status === 'qrcode')).toBe(false);
    const reopened = await sim.waitForSocket(h.id, { since });
    expect(reopened.creds.me!.id).toBe('5561999998888:7@s.whatsapp.net');
    expect(reopened.creds.noiseKeyPublic).toBe(storedNoise);
  });

  it('pairing-code login: PAIRING with the code the socket answered for the pairing number, no QR', async () => {
    const h = harness('+55 (61) 99999-7777');
    sim.behaviour(h.id).pairingCode = 'ABCD1234';
    await openSession(h);
    await until(() => sessionEvents(h).length > 0, 'pairing');
    expect(sessionEvents(h)).toEqual([{ kind: 'session', status: 'PAIRING', pairingCode: 'ABCD1234' }]);
    expect(sim.callsOf('requestPairingCode', h.id).map((c) => c.args[0])).toEqual(['5561999997777']);
  });

  it('maps DisconnectReason to the close reason the host acts on', async () => {
    const cases: [number, SessionCloseReason][] = [
      [DisconnectReason.loggedOut, 'logged-out'],
      [DisconnectReason.connectionReplaced, 'conflict'],
      [DisconnectReason.connectionLost, 'lost'],
      [DisconnectReason.connectionClosed, 'lost'],
    ];
    for (const [code, reason] of cases) {
      const { h } = await connected();
      sim.disconnect(h.id, code);
      await until(() => h.closed.length > 0, `close ${code}`);
      expect(h.closed).toEqual([reason]);
    }
    // 408 before any login is the QR expiring.
    const waiting = harness();
    await openSession(waiting);
    await until(() => sessionEvents(waiting).length > 0, 'qr');
    sim.disconnect(waiting.id, DisconnectReason.timedOut);
    await until(() => waiting.closed.length > 0, 'timeout');
    expect(waiting.closed).toEqual(['timeout']);
    expect(closeReasonOf(DisconnectReason.forbidden, true)).toBe('logged-out');
    expect(closeReasonOf(DisconnectReason.multideviceMismatch, true)).toBe('logged-out');
    expect(closeReasonOf(DisconnectReason.timedOut, true)).toBe('lost');
  });

  it('logout unlinks the device and clears the auth state; close keeps it', async () => {
    const { h, session } = await connected();
    await session.logout();
    expect(sim.callsOf('logout', h.id)).toHaveLength(1);
    expect(h.store.cleared).toBe(1);
    expect(h.store.data.size).toBe(0);
    expect(h.closed).toEqual([]);
    const kept = await connected();
    await kept.session.close();
    expect(sim.callsOf('end', kept.h.id)).toHaveLength(1);
    expect(kept.h.store.data.has('creds')).toBe(true);
    expect(kept.h.closed).toEqual([]);
  });
});

describe('auth state over the AuthStateStore', () => {
  it('round-trips creds and signal keys with Buffers, deletes with null, batches one turn into one write', async () => {
    const store = new MemoryStore();
    const auth = await loadBaileysAuth(store);
    const preKey = { public: Buffer.from('pub'), private: Buffer.from('priv') };
    // The library's key transaction and the creds.update arrive a few promise ticks apart in the same turn.
    const first = auth.state.keys.set({ 'pre-key': { '1': preKey, '2': preKey } });
    await Promise.resolve();
    await Promise.resolve();
    const second = auth.state.keys.set({ session: { 'a.0': Buffer.from('session-a') } });
    await Promise.resolve();
    await Promise.all([first, second, auth.saveCreds()]);
    expect(store.writes).toBe(1);
    expect([...store.data.keys()].sort()).toEqual(['creds', 'pre-key-1', 'pre-key-2', 'session-a.0']);
    await auth.state.keys.set({
      'pre-key': { '2': null },
      'app-state-sync-key': { k1: { keyData: Buffer.from('kd'), timestamp: 5 } },
    });
    expect(store.data.has('pre-key-2')).toBe(false);

    const again = await loadBaileysAuth(store);
    expect(Buffer.from(again.state.creds.noiseKey.public).equals(Buffer.from(auth.state.creds.noiseKey.public))).toBe(
      true,
    );
    const keys = await again.state.keys.get('pre-key', ['1', '2']);
    expect(Buffer.from(keys['1']!.public).toString()).toBe('pub');
    expect(keys['2']).toBeUndefined();
    const appKey = (await again.state.keys.get('app-state-sync-key', ['k1'])).k1!;
    expect(appKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(appKey.keyData!).toString()).toBe('kd');
  });
});

describe('sends', () => {
  let h: Harness;
  let session: LiveSession;
  beforeAll(async () => {
    ({ h, session } = await connected('5511988887777'));
    // Unpin the global session list: these sessions live for the whole block.
    open.splice(open.indexOf(session), 1);
  });
  afterAll(async () => {
    await session.close();
  });
  const lastSend = () => sim.callsOf('sendMessage', h.id).at(-1)!.args;
  const file = { data: Buffer.from('FILEDATA'), mime: 'image/png', name: 'nota.png' };

  it('sends text typed in the 13-digit form to the JID WhatsApp knows (both forms asked) and answers the message id', async () => {
    sim.registered.set('5561999998888', '556199998888@s.whatsapp.net');
    const result = await session.send(outbound({ body: 'Olá!' }));
    expect(result).toMatchObject({ providerMessageId: expect.stringMatching(/^3EB0SIM/), ack: 1 });
    expect(lastSend().slice(0, 2)).toEqual(['556199998888@s.whatsapp.net', { text: 'Olá!' }]);
    expect(sim.callsOf('onWhatsApp', h.id).at(-1)!.args).toEqual([
      '5561999998888@s.whatsapp.net',
      '556199998888@s.whatsapp.net',
    ]);
  });

  it('sends each media kind with the content baileys expects', async () => {
    const cases: [OutboundMessage['mediaType'], string, unknown][] = [
      ['image', 'legenda', { image: file.data, caption: 'legenda', mimetype: 'image/png' }],
      ['video', '', { video: file.data, mimetype: 'image/png' }],
      ['audio', '', { audio: file.data, mimetype: 'image/png', ptt: false }],
      ['ptt', '', { audio: file.data, mimetype: 'image/png', ptt: true }],
      ['sticker', '', { sticker: file.data, mimetype: 'image/png' }],
      ['application', 'o pdf', { document: file.data, mimetype: 'image/png', fileName: 'nota.png', caption: 'o pdf' }],
    ];
    for (const [mediaType, body, content] of cases) {
      await session.send(outbound({ to: '5511988887777', mediaType, body, media: file }));
      expect(lastSend()[1]).toEqual(content);
    }
    await expect(session.send(outbound({ mediaType: 'image', media: null }))).rejects.toMatchObject({
      permanent: true,
    });
  });

  it('quotes a remembered message with its own key, an unknown one by id; groups by JID', async () => {
    sim.emit(h.id, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'IN-1' },
          message: { conversation: 'pergunta' },
          messageTimestamp: 1_763_700_000,
          pushName: 'Ana',
        },
      ],
    });
    await until(() => h.events.some((e) => e.kind === 'message' && e.providerMessageId === 'IN-1'), 'inbound');
    await session.send(outbound({ to: '5511988887777', body: 'resposta', replyToProviderMessageId: 'IN-1' }));
    expect(lastSend()[2]).toMatchObject({
      quoted: { key: { id: 'IN-1', fromMe: false }, message: { conversation: 'pergunta' } },
    });
    await session.send(outbound({ to: '120363000000000001@g.us', body: 'grupo', replyToProviderMessageId: 'OLD' }));
    expect(lastSend()[0]).toBe('120363000000000001@g.us');
    expect(lastSend()[2]).toMatchObject({ quoted: { key: { remoteJid: '120363000000000001@g.us', id: 'OLD' } } });
  });

  it('edits and deletes our message, reacts to theirs', async () => {
    const sent = await session.send(outbound({ to: '5511988887777', body: 'erro' }));
    await session.edit('5511988887777', sent.providerMessageId, 'certo');
    expect(lastSend().slice(0, 2)).toEqual([
      '5511988887777@s.whatsapp.net',
      { text: 'certo', edit: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: sent.providerMessageId } },
    ]);
    await session.delete('5511988887777', sent.providerMessageId);
    expect(lastSend()[1]).toEqual({
      delete: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: sent.providerMessageId },
    });
    await session.react('5511988887777', 'IN-1', '👍');
    expect(lastSend()[1]).toEqual({
      react: { text: '👍', key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'IN-1' } },
    });
  });

  it('checks numbers (either ninth-digit form, answered with the form WhatsApp knows); send failures are ProviderErrors', async () => {
    sim.registered.set('554899990000', '554899990000@s.whatsapp.net');
    expect(await session.checkNumber('5548999990000')).toEqual({ exists: true, number: '554899990000' });
    expect(await session.checkNumber('554899990000')).toEqual({ exists: true, number: '554899990000' });
    expect(await session.checkNumber('5548911112222')).toEqual({ exists: false, number: null });
    sim.behaviour(h.id).failNext.sendMessage = 500;
    const failure = await session.send(outbound({ to: '5511988887777', body: 'x' })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ permanent: false });
  });

  it('rejects a call and sends the channel message when the policy says so', async () => {
    h.policy = { reject: true, message: 'Não atendemos ligações.' };
    const before = sim.callsOf('sendMessage', h.id).length;
    sim.emit(h.id, 'call', [
      {
        chatId: '5511977776666@s.whatsapp.net',
        from: '5511977776666@s.whatsapp.net',
        id: 'CALL-1',
        date: new Date(),
        status: 'offer',
        offline: false,
      },
    ]);
    await sim.waitForCalls('rejectCall', 1, { channelId: h.id });
    expect(sim.callsOf('rejectCall', h.id)[0]!.args).toEqual(['CALL-1', '5511977776666@s.whatsapp.net']);
    await sim.waitForCalls('sendMessage', before + 1, { channelId: h.id });
    expect(lastSend().slice(0, 2)).toEqual(['5511977776666@s.whatsapp.net', { text: 'Não atendemos ligações.' }]);
    h.policy = { reject: false, message: 'x' };
    sim.emit(h.id, 'call', [
      {
        chatId: '5511977776666@s.whatsapp.net',
        from: '5511977776666@s.whatsapp.net',
        id: 'CALL-2',
        date: new Date(),
        status: 'offer',
        offline: false,
      },
    ]);
    sim.emit(h.id, 'messages.update', [
      { key: { remoteJid: '5511977776666@s.whatsapp.net', id: 'MARK' }, update: { status: 3 } },
    ]);
    await until(() => h.events.some((e) => e.kind === 'ack' && e.providerMessageId === 'MARK'), 'marker');
    expect(sim.callsOf('rejectCall', h.id)).toHaveLength(1);
  });

  it('downloads media the simulator serves encrypted, within the byte limit', async () => {
    const plain = Buffer.from('%PDF-1.4 nota fiscal '.repeat(40));
    const media = await sim.addMedia(plain, 'document', 'application/pdf');
    sim.emit(h.id, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'DOC-1' },
          message: { documentMessage: { ...media, fileName: 'nota.pdf', caption: 'segue' } },
          messageTimestamp: 1_763_700_100,
        },
      ],
    });
    await until(() => h.events.some((e) => e.kind === 'message' && e.providerMessageId === 'DOC-1'), 'doc');
    const event = h.events.find((e) => e.kind === 'message' && e.providerMessageId === 'DOC-1')!;
    if (event.kind !== 'message') throw new Error('not a message');
    expect(event).toMatchObject({
      mediaType: 'application',
      body: 'segue',
      media: { mime: 'application/pdf', name: 'nota.pdf' },
    });
    const downloaded = await driver.downloadMedia(event.media!.ref, 10_000);
    expect(downloaded).toEqual({ data: plain, mime: 'application/pdf', name: 'nota.pdf' });
    expect((await session.downloadMedia(event.media!.ref, 10_000)).data.equals(plain)).toBe(true);
    await expect(driver.downloadMedia(event.media!.ref, 100)).rejects.toMatchObject({ permanent: true });
    await expect(driver.downloadMedia('{"nope":1}', 100)).rejects.toMatchObject({ permanent: true });
  });
});

describe('groups, contacts, history and mentions', () => {
  it('lists groups and participants (LIDs resolved), the phone contacts, asks for older history, mentions', async () => {
    const { h, session } = await connected();
    sim.groups.set('120363000000000077@g.us', {
      id: '120363000000000077@g.us',
      subject: 'Atacado',
      owner: undefined,
      participants: [
        { id: '5511911110000@s.whatsapp.net', notify: 'Dono', admin: 'superadmin' },
        { id: '4455@lid', phoneNumber: '556188887777@s.whatsapp.net', notify: 'Lia', admin: null },
        { id: '9999@lid', notify: 'Sem número' },
      ],
    });
    expect(await session.listGroups!()).toEqual([
      { id: '120363000000000077@g.us', subject: 'Atacado', participants: 3 },
    ]);
    expect(await session.groupParticipants!('120363000000000077@g.us')).toEqual([
      { number: '5511911110000', name: 'Dono', isAdmin: true },
      // Stored as WhatsApp gave it: the 12-digit phone of the LID stays 12 digits.
      { number: '556188887777', name: 'Lia', isAdmin: false },
    ]);

    sim.emit(h.id, 'contacts.upsert', [
      { id: '5511922223333@s.whatsapp.net', name: 'Cliente Salvo' },
      { id: '7788@lid', phoneNumber: '5511933334444@s.whatsapp.net', notify: 'Notify' },
    ]);
    sim.emit(h.id, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: '5511922223333@s.whatsapp.net', id: 'H-2' },
          message: { conversation: 'b' },
          messageTimestamp: 200,
        },
        {
          key: { remoteJid: '5511922223333@s.whatsapp.net', id: 'H-1' },
          message: { conversation: 'a' },
          messageTimestamp: 100,
        },
      ],
    });
    await until(() => h.events.some((e) => e.kind === 'message' && e.providerMessageId === 'H-1'), 'anchor');
    expect(await session.listContacts!()).toEqual([
      { number: '5511922223333', name: 'Cliente Salvo' },
      { number: '5511933334444', name: 'Notify' },
    ]);
    expect(await session.requestHistory!('5511922223333', 80)).toBe(50);
    expect(sim.callsOf('fetchMessageHistory', h.id)[0]!.args).toEqual([
      50,
      { remoteJid: '5511922223333@s.whatsapp.net', id: 'H-1' },
      100,
    ]);
    // The answer arrives as an on-demand history set and is ingested like any message.
    sim.emit(h.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
      messages: [
        {
          key: { remoteJid: '5511922223333@s.whatsapp.net', id: 'H-0' },
          message: { conversation: 'old' },
          messageTimestamp: 50,
        },
      ],
    });
    await until(() => h.events.some((e) => e.kind === 'message' && e.providerMessageId === 'H-0'), 'history');

    const mention = await session.sendMention!('120363000000000077@g.us', '@5511911110000 oi', ['5511911110000']);
    expect(mention.providerMessageId).toMatch(/^3EB0SIM/);
    expect(sim.callsOf('sendMessage', h.id).at(-1)!.args[1]).toEqual({
      text: '@5511911110000 oi',
      mentions: ['5511911110000@s.whatsapp.net'],
    });
  });
});

describe('inbound through the session', () => {
  it('resolves a LID chat with the library LID map, names the group, reports history progress', async () => {
    const { h } = await connected();
    sim.lids.set('88001122334455@lid', '5521977776666@s.whatsapp.net');
    sim.emit(h.id, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: '88001122334455@lid', fromMe: false, id: 'L-1' },
          message: { conversation: 'via lid' },
          pushName: 'Bia',
        },
        {
          key: {
            remoteJid: '120363000000000009@g.us',
            fromMe: false,
            id: 'G-1',
            participant: '5521911112222@s.whatsapp.net',
          },
          message: { conversation: 'no grupo' },
          pushName: 'Caio',
        },
        { key: { remoteJid: 'status@broadcast', fromMe: false, id: 'S-1' }, message: { conversation: 'status' } },
      ],
    });
    sim.emit(h.id, 'messaging-history.set', { chats: [], contacts: [], messages: [], progress: 42.4 });
    sim.emit(h.id, 'message-receipt.update', [
      {
        key: { remoteJid: '5521977776666@s.whatsapp.net', id: 'OUT-9' },
        receipt: { userJid: 'x', readTimestamp: 1_763_700_200 },
      },
    ]);
    await until(() => h.events.some((e) => e.kind === 'ack'), 'receipt');
    const messages = h.events.filter((e) => e.kind === 'message');
    expect(messages.map((m) => m.providerMessageId)).toEqual(['L-1', 'G-1']);
    expect(messages[0]).toMatchObject({ party: { chatId: '5521977776666', number: '5521977776666', name: 'Bia' } });
    expect(messages[1]).toMatchObject({
      party: {
        chatId: '120363000000000009@g.us',
        isGroup: true,
        name: 'Group 120363000000000009',
        participant: { id: '5521911112222', name: 'Caio', number: '5521911112222' },
      },
    });
    expect(h.events).toContainEqual({ kind: 'session-sync', percent: 42 });
    expect(h.events.at(-1)).toEqual({ kind: 'ack', providerMessageId: 'OUT-9', ack: 3, timestamp: 1_763_700_200_000 });
  });

  it('refuses sends while not connected (transient: the session may come back)', async () => {
    const h = harness();
    const session = await openSession(h);
    const error = await session.send(outbound({ body: 'x' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'ERR_WAPP_NOT_INITIALIZED', permanent: false });
  });
});

describe('login history import (channel importMessages)', () => {
  const T0 = 1_763_700_000;
  const history = (ids: [string, number, string?][]) =>
    ids.map(([id, seconds, jid]) => ({
      key: { remoteJid: jid ?? '5511922223333@s.whatsapp.net', fromMe: false, id },
      message: { conversation: `texto ${id}` },
      messageTimestamp: seconds,
      pushName: 'Rita',
    }));
  const GROUP = '120363000000000055@g.us';
  const importing = (id: number, historyImport: ChannelCredentials['historyImport']) =>
    ({ ...channel(id), historyImport }) as ChannelCredentials;

  async function connectedWith(credentials: (id: number) => ChannelCredentials, drv = driver) {
    const h = harness();
    open.push(await drv.open(credentials(h.id), h.context));
    await until(() => sessionEvents(h).some((e) => e.kind === 'session' && e.status === 'qrcode'), 'qr');
    sim.scan(h.id, { number: '5561999998888', name: 'Loja' });
    await until(() => sessionEvents(h).some((e) => e.kind === 'session' && e.status === 'CONNECTED'), 'connected');
    return h;
  }
  const importEvents = (h: Harness) =>
    h.events.flatMap((e) =>
      e.kind === 'history-import'
        ? [`import ${e.total}${e.done ? ' done' : ''}`]
        : e.kind === 'message'
          ? [`${e.providerMessageId}${e.imported ? ' imported' : ''}`]
          : [],
    );

  it('hands the history chunks over as imported messages within the dates, announced, ended by RECENT complete', async () => {
    const h = await connectedWith((id) =>
      importing(id, { from: T0 * 1000, to: (T0 + 100) * 1000, groups: false, queueId: null, closeTickets: false }),
    );
    sim.groups.set(GROUP, { id: GROUP, subject: 'Equipe', owner: undefined, participants: [] });
    sim.emit(h.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      progress: 10,
      messages: history([
        ['A', T0 + 90],
        ['TOO-NEW', T0 + 101],
        ['G', T0 + 50, GROUP],
      ]),
    });
    sim.emit(h.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      progress: 100,
      messages: history([
        ['B', T0 + 10],
        ['TOO-OLD', T0 - 1],
        ['C', T0],
      ]),
    });
    sim.emit(h.id, 'messaging-history.status', {
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      status: 'complete',
      explicit: true,
    });
    await until(() => importEvents(h).includes('import 3 done'), 'import end');
    expect(importEvents(h)).toEqual([
      'import 1',
      'A imported',
      'import 3',
      'B imported',
      'C imported',
      'import 3 done',
    ]);
    // Groups were not asked for: no group lookup was made for the history.
    expect(sim.callsOf('groupMetadata', h.id)).toEqual([]);
    // A live message afterwards is an ordinary one, and later history chunks import nothing more.
    sim.emit(h.id, 'messages.upsert', { type: 'notify', messages: history([['LIVE', T0 + 200]]) });
    sim.emit(h.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      messages: history([['LATE', T0 + 20]]),
    });
    await until(() => importEvents(h).includes('LIVE'), 'live');
    await new Promise((r) => setTimeout(r, 50));
    expect(importEvents(h).slice(-1)).toEqual(['LIVE']);
  });

  it('imports group chats when the channel asks, and ends after a quiet period without a status', async () => {
    const quick = createBaileysDriver({
      makeSocket: (config, hint) => makeWASocket({ ...config, channelId: hint.channelId, simulatorUrl: sim.url }),
      historyQuietMs: 80,
    });
    const h = await connectedWith(
      (id) => importing(id, { from: null, to: null, groups: true, queueId: null, closeTickets: false }),
      quick,
    );
    sim.groups.set(GROUP, { id: GROUP, subject: 'Equipe', owner: undefined, participants: [] });
    sim.emit(h.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      messages: history([
        ['P', T0],
        ['G', T0 + 1, GROUP],
      ]),
    });
    await until(() => importEvents(h).includes('import 2 done'), 'quiet end');
    expect(importEvents(h)).toEqual(['import 2', 'P imported', 'G imported', 'import 2 done']);
    const group = h.events.find((e) => e.kind === 'message' && e.providerMessageId === 'G');
    expect(group).toMatchObject({ party: { chatId: GROUP, isGroup: true, name: 'Equipe' } });
  });

  it('imports nothing when the channel does not import (the history is only progress), on-demand history as before', async () => {
    const h = await connectedWith((id) => importing(id, null));
    sim.emit(h.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      progress: 55,
      messages: history([['X', T0]]),
    });
    sim.emit(h.id, 'messaging-history.status', {
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      status: 'complete',
      explicit: true,
    });
    sim.emit(h.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
      messages: history([['OD', T0 - 500]]),
    });
    await until(() => importEvents(h).includes('OD'), 'on-demand');
    expect(importEvents(h)).toEqual(['OD']);
    expect(h.events.filter((e) => e.kind === 'session-sync')).toEqual([
      { kind: 'session-sync', percent: 55 },
      { kind: 'session-sync', percent: 100 },
    ]);
  });
});

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WAWebJS from 'whatsapp-web.js';
import {
  ProviderError,
  type ChannelCredentials,
  type InboundEvent,
  type OutboundMessage,
} from '../../channels.adapter.js';
import type { AuthStateStore, LiveSession, SessionCloseReason, SessionContext } from '../../sessions/session-driver.js';
import {
  CHUNK_BYTES,
  MANIFEST_KEY,
  chunkKey,
  createRemoteSessionStore,
  type RemoteSessionStore,
} from './wwebjs.auth.js';
import { loadWwebjs } from './wwebjs.client.js';
import { closeReasonOf, createWwebjsDriver } from './wwebjs.driver.js';
import { fakeClientFactory, rawIncoming, rawKey, type FakeWwebjsClient } from './wwebjs.fake-client.js';

/** The customer's number as a user types it (with the ninth digit). */
const CUSTOMER = '5531988887777';
/** WhatsApp knows this customer by the old 8-digit form: inbound parties are stored with these 12 digits. */
const CUSTOMER_WA = '553188887777';

function memoryAuth(): AuthStateStore & { data: Map<string, string>; writes: number } {
  const data = new Map<string, string>();
  const store = {
    data,
    writes: 0,
    async read(keys: string[]) {
      return new Map(keys.filter((k) => data.has(k)).map((k) => [k, data.get(k)!] as const));
    },
    async write(entries: Map<string, string | null>) {
      store.writes++;
      for (const [k, v] of entries) {
        if (v === null) data.delete(k);
        else data.set(k, v);
      }
    },
    async clear() {
      data.clear();
    },
  };
  return store;
}

interface Harness {
  ctx: SessionContext;
  events: InboundEvent[];
  closed: SessionCloseReason[];
  auth: ReturnType<typeof memoryAuth>;
  policy: { reject: boolean; message: string };
}

function harness(pairingNumber: string | null = null): Harness {
  const events: InboundEvent[] = [];
  const closed: SessionCloseReason[] = [];
  const auth = memoryAuth();
  const h: Harness = {
    events,
    closed,
    auth,
    policy: { reject: false, message: '' },
    ctx: {
      auth,
      pairingNumber,
      logger: pino({ level: 'silent' }),
      emit: async (batch) => void events.push(...batch),
      closed: (reason) => void closed.push(reason),
      callPolicy: async () => h.policy,
    },
  };
  return h;
}

const channel = (extra: Partial<ChannelCredentials> = {}): ChannelCredentials => ({
  id: 7,
  tenantId: 1,
  type: 'whatsapp',
  name: 'Loja',
  number: null,
  tokenTelegram: null,
  tokenAPI: null,
  wabaId: null,
  bmToken: null,
  wabaVersion: '20.0',
  remotePath: null,
  webhookSecret: 's',
  providerState: {},
  routing: { queueId: null, userId: null },
  ...extra,
});

/** Lets the driver's event chain run (its setImmediate hops, and the scratch folder's removal on a shutdown). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 25));
};
/** Waits (bounded) until the session's end was reported: the shutdown before it does file I/O. */
const ended = async (list: unknown[]) => {
  for (let waited = 0; list.length === 0 && waited < 3000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await settle();
};

let dataDir: string;
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wwebjs-test-'));
});
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function openConnected(h = harness(), configure?: (client: FakeWwebjsClient) => void) {
  const factory = fakeClientFactory((client) => {
    client.state.registered.add(CUSTOMER_WA);
    configure?.(client);
  });
  const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir, loginTimeoutMs: 60_000 });
  const live = await driver.open(channel(), h.ctx);
  const client = factory.last();
  client.connect();
  await settle();
  return { driver, live, client, h };
}

describe('wwebjs driver: opening and login', () => {
  it('makes the client with the system chromium, headless, RemoteAuth and the channel proxy', async () => {
    const factory = fakeClientFactory();
    const driver = createWwebjsDriver({
      makeClient: factory.makeClient,
      dataDir,
      chromiumPath: '/opt/chromium',
      runningAsRoot: true,
    });
    const proxy = { url: 'http://127.0.0.1:3128', user: 'u', pass: 'p' };
    await driver.open(channel({ proxy }), harness().ctx);
    const { options } = factory.last();
    const lib = await loadWwebjs();
    expect(options.authStrategy).toBeInstanceOf(lib.RemoteAuth);
    expect(options.puppeteer).toMatchObject({ executablePath: '/opt/chromium', headless: true });
    expect(options.puppeteer?.args).toEqual(
      expect.arrayContaining(['--no-sandbox', '--proxy-server=http://127.0.0.1:3128']),
    );
    expect(options.proxyAuthentication).toEqual({ username: 'u', password: 'p' });
    expect(options.webVersionCache).toEqual({ type: 'none' });
    expect(options.pairWithPhoneNumber).toBeUndefined();
    expect(factory.last().callsOf('initialize')).toHaveLength(1);
    // RemoteAuth's scratch folder is under the data dir, one per open.
    const strategy = options.authStrategy as unknown as { dataPath: string; clientId: string };
    expect(strategy.dataPath.startsWith(dataDir)).toBe(true);
    expect(strategy.clientId).toBe('channel-7');
  });

  it('no sandbox flag when not root, no proxy when the channel has none', async () => {
    const factory = fakeClientFactory();
    const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir, runningAsRoot: false });
    await driver.open(channel(), harness().ctx);
    const args: string[] = factory.last().options.puppeteer?.args ?? [];
    expect(args.some((a) => a.startsWith('--no-sandbox') || a.startsWith('--proxy-server'))).toBe(false);
    expect(factory.last().options.proxyAuthentication).toBeUndefined();
  });

  it('qr -> qrcode, scan -> OPENING, ready -> CONNECTED with the number as WhatsApp gave it and picture', async () => {
    const h = harness();
    const factory = fakeClientFactory((client) => (client.state.profilePicUrl = 'https://pps.whatsapp.net/me.jpg'));
    const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir });
    await driver.open(channel(), h.ctx);
    const client = factory.last();
    client.showQr('2@abc,def,ghi,jkl');
    client.showQr('2@second');
    client.connect(CUSTOMER_WA);
    await settle();
    expect(h.events).toEqual([
      { kind: 'session', status: 'qrcode', qrcode: '2@abc,def,ghi,jkl' },
      { kind: 'session', status: 'qrcode', qrcode: '2@second' },
      { kind: 'session', status: 'OPENING' },
      { kind: 'session', status: 'CONNECTED', number: CUSTOMER_WA, profilePicUrl: 'https://pps.whatsapp.net/me.jpg' },
    ]);
    expect(h.closed).toEqual([]);
  });

  it('an account WhatsApp Web names by LID only: the number from the LID map', async () => {
    const { h } = await openConnected(harness(), (client) => {
      client.state.lids.set('99887766@lid', `${CUSTOMER_WA}@c.us`);
      client.connect = function (this: FakeWwebjsClient) {
        this.emit('authenticated');
        this.info = { wid: { user: '99887766', server: 'lid', _serialized: '99887766@lid' } };
        this.emit('ready');
      };
    });
    expect(h.events.at(-1)).toMatchObject({ kind: 'session', status: 'CONNECTED', number: CUSTOMER_WA });
  });

  it('pairing number set: the library pairs by phone number and its code is PAIRING', async () => {
    const h = harness('5531988887777');
    const factory = fakeClientFactory();
    const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir });
    await driver.open(channel(), h.ctx);
    const client = factory.last();
    expect(client.options.pairWithPhoneNumber).toEqual({ phoneNumber: '5531988887777', showNotification: true });
    client.showPairingCode('ABCD1234');
    await settle();
    expect(h.events).toEqual([{ kind: 'session', status: 'PAIRING', pairingCode: 'ABCD1234' }]);
  });

  it('nobody scans in time: closed(timeout), the browser closed and the scratch folder removed', async () => {
    const h = harness();
    const factory = fakeClientFactory();
    const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir, loginTimeoutMs: 30 });
    await driver.open(channel(), h.ctx);
    const client = factory.last();
    const scratch = (client.options.authStrategy as unknown as { dataPath: string }).dataPath;
    await fs.mkdir(scratch, { recursive: true });
    client.showQr('2@qr');
    await ended(h.closed);
    expect(h.closed).toEqual(['timeout']);
    expect(client.callsOf('destroy')).toHaveLength(1);
    await expect(fs.access(scratch)).rejects.toThrow();
  });

  it('a scan in time stops the login timer', async () => {
    const h = harness();
    const factory = fakeClientFactory();
    const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir, loginTimeoutMs: 30 });
    await driver.open(channel(), h.ctx);
    factory.last().showQr('2@qr');
    factory.last().connect();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(h.closed).toEqual([]);
  });

  it('initialize fails (no browser): closed(lost) only after open returned', async () => {
    const h = harness();
    const order: string[] = [];
    h.ctx.closed = (reason) => void order.push(`closed:${reason}`);
    const factory = fakeClientFactory(
      (client) => (client.state.initializeError = new Error('Failed to launch the browser')),
    );
    const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir });
    await driver.open(channel(), h.ctx).then(() => order.push('opened'));
    for (let waited = 0; order.length < 2 && waited < 3000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(order).toEqual(['opened', 'closed:lost']);
  });
});

describe('wwebjs driver: disconnects', () => {
  it.each([
    ['LOGOUT', 'logged-out'],
    ['UNPAIRED', 'logged-out'],
    ['CONFLICT', 'conflict'],
    ['UNLAUNCHED', 'lost'],
    ['PROXYBLOCK', 'lost'],
    ['TIMEOUT', 'lost'],
    ['Max qrcode retries reached', 'lost'],
  ] as const)('disconnected %s -> closed(%s), the browser closed, once', async (reason, expected) => {
    const { client, h } = await openConnected();
    client.disconnect(reason);
    client.disconnect(reason);
    await ended(h.closed);
    expect(h.closed).toEqual([expected]);
    expect(closeReasonOf(reason)).toBe(expected);
    expect(client.callsOf('destroy')).toHaveLength(1);
    // No events after the end.
    client.receive(rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'late' }));
    await settle();
    expect(h.events.some((e) => e.kind === 'message')).toBe(false);
  });

  it("RemoteAuth's own delete goes through after LOGOUT, is ignored after CONFLICT (the other node owns it now)", async () => {
    for (const [reason, kept] of [
      ['CONFLICT', true],
      ['LOGOUT', false],
    ] as const) {
      const h = harness();
      h.auth.data.set(MANIFEST_KEY, '{}');
      const { client } = await openConnected(h);
      client.disconnect(reason);
      const store = (client.options.authStrategy as unknown as { store: RemoteSessionStore }).store;
      await store.delete({ session: 'RemoteAuth-channel-7' });
      expect(h.auth.data.has(MANIFEST_KEY)).toBe(kept);
    }
  });

  it('auth_failure: closed(logged-out)', async () => {
    const { client, h } = await openConnected();
    client.emit('auth_failure', 'restore failed');
    await ended(h.closed);
    expect(h.closed).toEqual(['logged-out']);
  });

  it('close(): destroy without logout, auth kept, no closed(); logout(): the library logout and auth cleared', async () => {
    const first = await openConnected();
    first.h.auth.data.set(MANIFEST_KEY, '{}');
    await first.live.close();
    await settle();
    expect(first.client.callsOf('destroy')).toHaveLength(1);
    expect(first.client.callsOf('logout')).toHaveLength(0);
    expect(first.h.auth.data.size).toBe(1);
    expect(first.h.closed).toEqual([]);
    await expect(first.live.send(text('x'))).rejects.toMatchObject({
      permanent: false,
      message: 'ERR_WAPP_NOT_INITIALIZED',
    });

    const second = await openConnected();
    second.h.auth.data.set(MANIFEST_KEY, '{}');
    await second.live.logout();
    expect(second.client.callsOf('logout')).toHaveLength(1);
    expect(second.h.auth.data.size).toBe(0);
    expect(second.h.closed).toEqual([]);
  });
});

describe('wwebjs driver: RemoteAuth store over the AuthStateStore', () => {
  it('save then extract gives the same bytes, in chunks, old chunks dropped, checksum checked; delete clears', async () => {
    const auth = memoryAuth();
    let canDelete = false;
    const store = createRemoteSessionStore(auth, { dataPath: dataDir, canDelete: () => canDelete, chunkBytes: 1000 });
    const session = 'RemoteAuth-channel-7';
    expect(await store.sessionExists({ session })).toBe(false);

    const zip = Buffer.from(Array.from({ length: 3500 }, (_, i) => (i * 7) % 256));
    await fs.writeFile(path.join(dataDir, `${session}.zip`), zip);
    await store.save({ session });
    expect(auth.writes).toBe(1); // one write: a reader never sees half a session
    expect([...auth.data.keys()].sort()).toEqual(
      [MANIFEST_KEY, chunkKey(0), chunkKey(1), chunkKey(2), chunkKey(3)].sort(),
    );
    expect(await store.sessionExists({ session })).toBe(true);

    const target = path.join(dataDir, 'elsewhere', 'restored.zip');
    await store.extract({ session, path: target });
    expect(Buffer.compare(await fs.readFile(target), zip)).toBe(0);

    // A smaller session later: the chunks past its end go in the same write.
    await fs.writeFile(path.join(dataDir, `${session}.zip`), zip.subarray(0, 1500));
    await store.save({ session });
    expect(auth.data.has(chunkKey(2))).toBe(false);
    await store.extract({ session, path: target });
    expect(Buffer.compare(await fs.readFile(target), zip.subarray(0, 1500))).toBe(0);

    // A chunk that does not match the manifest fails the extract.
    auth.data.set(chunkKey(1), Buffer.from('tampered').toString('base64'));
    await expect(store.extract({ session, path: target })).rejects.toThrow(/checksum/);

    await store.delete({ session });
    expect(await store.sessionExists({ session })).toBe(true);
    canDelete = true;
    await store.delete({ session });
    expect(auth.data.size).toBe(0);
    expect(await store.sessionExists({ session })).toBe(false);
    await expect(store.extract({ session, path: target })).rejects.toThrow(/no stored/);
  });

  it('chunks are a bounded size by default', () => {
    expect(CHUNK_BYTES).toBeLessThanOrEqual(1024 * 1024);
  });
});

const text = (body: string, extra: Partial<OutboundMessage> = {}): OutboundMessage => ({
  to: CUSTOMER,
  body,
  mediaType: 'chat',
  media: null,
  replyToProviderMessageId: null,
  ...extra,
});
const file = (mediaType: OutboundMessage['mediaType'], mime: string, name: string, body = '') =>
  text(body, { mediaType, media: { data: Buffer.from(`bytes of ${name}`), mime, name } });

describe('wwebjs driver: sends', () => {
  it('text to the id WhatsApp knows the number by; the echo of our own send is not stored again', async () => {
    const { live, client, h } = await openConnected();
    const before = h.events.length;
    const result = await live.send(text('Olá!'));
    await settle();
    const [[chatId, content, options]] = client.callsOf('sendMessage') as [[string, unknown, unknown]];
    expect(chatId).toBe(`${CUSTOMER_WA}@c.us`);
    expect(content).toBe('Olá!');
    expect(options).toEqual({});
    expect(result).toEqual({ providerMessageId: expect.stringMatching(/^3EB0/), ack: 0, timestamp: 1_750_000_100_000 });
    expect(h.events.length).toBe(before);
    // The number's id is remembered: the next send asks WhatsApp nothing.
    await live.send(text('de novo'));
    expect(client.callsOf('getNumberId')).toEqual([[CUSTOMER]].concat([[CUSTOMER_WA]]));
  });

  const cases: [string, OutboundMessage, Partial<WAWebJS.MessageSendOptions>][] = [
    ['image with caption', file('image', 'image/jpeg', 'a.jpg', 'legenda'), { caption: 'legenda' }],
    ['video', file('video', 'video/mp4', 'v.mp4'), {}],
    ['audio file', file('audio', 'audio/mpeg', 'm.mp3'), {}],
    ['voice note', file('ptt', 'audio/ogg', 'voz.ogg', 'ignored'), { sendAudioAsVoice: true }],
    ['sticker', file('sticker', 'image/webp', 's.webp'), { sendMediaAsSticker: true }],
    [
      'document',
      file('application', 'application/pdf', 'nota.pdf', 'segue'),
      { sendMediaAsDocument: true, caption: 'segue' },
    ],
  ];
  it.each(cases)('%s: MessageMedia from the bytes and the exact options', async (_name, message, expected) => {
    const { live, client } = await openConnected();
    await live.send(message);
    const [[, content, options]] = client.callsOf('sendMessage') as [[string, WAWebJS.MessageMedia, object]];
    const lib = await loadWwebjs();
    expect(content).toBeInstanceOf(lib.MessageMedia);
    expect(content).toMatchObject({
      mimetype: message.media!.mime,
      data: message.media!.data.toString('base64'),
      filename: message.media!.name,
    });
    expect(options).toEqual(expected);
  });

  it('a reply quotes the serialized id of the message it answers', async () => {
    const { live, client } = await openConnected();
    const incoming = rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'pergunta' });
    client.receive(incoming);
    await settle();
    await live.send(text('resposta', { replyToProviderMessageId: incoming.id.id }));
    const [[, , options]] = client.callsOf('sendMessage') as [[string, string, WAWebJS.MessageSendOptions]];
    expect(options.quotedMessageId).toBe(incoming.id._serialized);
  });

  it('groups and LID chats are addressed as given', async () => {
    const { live, client } = await openConnected();
    await live.send(text('grupo', { to: '120363025555555555@g.us' }));
    await live.send(text('lid', { to: '123456@lid' }));
    expect(client.callsOf('sendMessage').map((args) => args[0])).toEqual(['120363025555555555@g.us', '123456@lid']);
    expect(client.callsOf('getNumberId')).toEqual([]);
  });

  it('a number not on WhatsApp is a permanent error; before ready a transient one', async () => {
    const { live } = await openConnected();
    await expect(live.send(text('x', { to: '5531900000000' }))).rejects.toMatchObject({ permanent: true });

    const factory = fakeClientFactory();
    const early = await createWwebjsDriver({ makeClient: factory.makeClient, dataDir }).open(channel(), harness().ctx);
    const error = await early.send(text('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ permanent: false, message: 'ERR_WAPP_NOT_INITIALIZED' });
  });
});

describe('wwebjs driver: inbound events through the session', () => {
  it('a message and its ack, in order; a phone-written message (message_create fromMe) is stored', async () => {
    const { client, h } = await openConnected();
    const start = h.events.length;
    const msg = client.receive(rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'oi', notifyName: 'Maria' }));
    client.ack(msg, 3);
    client.receive({
      id: rawKey(true, `${CUSTOMER_WA}@c.us`, '3EB0PHONE'),
      type: 'chat',
      t: 5,
      from: 'me@c.us',
      to: `${CUSTOMER_WA}@c.us`,
      body: 'do celular',
    });
    await settle();
    expect(h.events.slice(start)).toEqual([
      expect.objectContaining({
        kind: 'message',
        body: 'oi',
        fromMe: false,
        party: expect.objectContaining({ chatId: CUSTOMER_WA, name: 'Maria' }),
      }),
      expect.objectContaining({ kind: 'ack', providerMessageId: msg.id.id, ack: 3 }),
      expect.objectContaining({ kind: 'message', providerMessageId: '3EB0PHONE', fromMe: true, body: 'do celular' }),
    ]);
  });

  it('LIDs resolved through the library, group names asked once', async () => {
    const group = '120363025555555555@g.us';
    const { client, h } = await openConnected(harness(), (c) => {
      c.state.lids.set('4455@lid', `${CUSTOMER_WA}@c.us`);
      c.state.groups.set(group, 'Vendas');
    });
    const start = h.events.length;
    client.receive(rawIncoming({ from: '4455@lid', body: 'via lid' }));
    client.receive(rawIncoming({ from: group, author: '4455@lid', notifyName: 'Zé', body: 'g1' }));
    client.receive(rawIncoming({ from: group, author: '4455@lid', notifyName: 'Zé', body: 'g2' }));
    await settle();
    expect(h.events.slice(start)).toEqual([
      expect.objectContaining({ party: expect.objectContaining({ chatId: CUSTOMER_WA, number: CUSTOMER_WA }) }),
      expect.objectContaining({
        party: expect.objectContaining({
          chatId: group,
          name: 'Vendas',
          participant: expect.objectContaining({ id: CUSTOMER_WA }),
        }),
      }),
      expect.objectContaining({ body: 'g2' }),
    ]);
    expect(client.callsOf('getChatById')).toHaveLength(1);
    expect(client.callsOf('getContactLidAndPhone')).toHaveLength(1);
  });

  it('edit, delete for everyone, reaction, battery, loading screen, contact change', async () => {
    const { client, h } = await openConnected();
    const start = h.events.length;
    const raw = rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'antes' });
    client.receive(raw);
    client.editMessage(raw, 'depois');
    client.react(raw.id, `${CUSTOMER_WA}@c.us`, '👍');
    client.revoke(raw);
    client.emit('change_battery', { battery: 80, plugged: false });
    client.emit('loading_screen', 45, 'WhatsApp');
    client.emit('contact_changed', {}, `${CUSTOMER_WA}@c.us`, '553199990000@c.us', true);
    await settle();
    expect(h.events.slice(start).map((e) => e.kind)).toEqual([
      'message',
      'edit',
      'reaction',
      'delete',
      'battery',
      'session-sync',
      'contact',
    ]);
    expect(h.events.slice(start)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'edit', providerMessageId: raw.id.id, body: 'depois' }),
        expect.objectContaining({ kind: 'delete', providerMessageId: raw.id.id }),
        expect.objectContaining({ kind: 'reaction', providerMessageId: raw.id.id, reaction: '👍' }),
      ]),
    );
  });

  it('a call is rejected with the message when the policy says so, left alone otherwise', async () => {
    const { client, h } = await openConnected();
    h.policy = { reject: true, message: 'Não atendemos ligações.' };
    client.call(`${CUSTOMER_WA}@c.us`);
    await settle();
    expect(client.callsOf('call.reject')).toHaveLength(1);
    expect(client.callsOf('sendMessage')).toEqual([[`${CUSTOMER_WA}@c.us`, 'Não atendemos ligações.', {}]]);

    h.policy = { reject: false, message: 'x' };
    client.call(`${CUSTOMER_WA}@c.us`);
    client.call(`${CUSTOMER_WA}@c.us`, { outgoing: true });
    await settle();
    expect(client.callsOf('call.reject')).toHaveLength(1);
    expect(client.callsOf('sendMessage')).toHaveLength(1);
  });
});

describe('wwebjs driver: actions, media, numbers', () => {
  async function withSent() {
    const opened = await openConnected();
    const sent = await opened.live.send(text('original'));
    return { ...opened, sent };
  }

  it('edit calls message.edit with the new text; a message WhatsApp will not edit is permanent', async () => {
    const { live, client, sent } = await withSent();
    await live.edit(CUSTOMER, sent.providerMessageId, 'corrigido');
    expect(client.callsOf('message.edit')).toEqual([
      [`true_${CUSTOMER_WA}@c.us_${sent.providerMessageId}`, 'corrigido'],
    ]);
    const incoming = rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'deles' });
    client.receive(incoming);
    await settle();
    await expect(live.edit(CUSTOMER, incoming.id.id, 'x')).rejects.toMatchObject({ permanent: true });
  });

  it('delete is message.delete(true) (for everyone); react is the library react (sendReaction)', async () => {
    const { live, client, sent } = await withSent();
    const serialized = `true_${CUSTOMER_WA}@c.us_${sent.providerMessageId}`;
    await live.delete(CUSTOMER, sent.providerMessageId);
    await live.react(CUSTOMER, sent.providerMessageId, '❤️');
    expect(client.callsOf('message.delete')).toEqual([[serialized, true]]);
    expect(client.callsOf('sendReaction')).toEqual([[serialized, '❤️']]);
  });

  it('a message not remembered is found by its rebuilt serialized id; unknown ones are permanent errors', async () => {
    const { live, client } = await openConnected();
    const old = client.build(
      rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'antiga', id: rawKey(false, `${CUSTOMER_WA}@c.us`, '3EB0OLD') }),
    );
    await live.react(CUSTOMER, '3EB0OLD', '👍');
    expect(client.callsOf('sendReaction')).toEqual([[old.id._serialized, '👍']]);
    await expect(live.delete(CUSTOMER, '3EB0NOPE')).rejects.toMatchObject({ permanent: true });
  });

  it('downloadMedia by serialized id, through the live session and the driver on this node; too big is permanent', async () => {
    const { live, client, driver } = await openConnected();
    const raw = rawIncoming({ from: `${CUSTOMER_WA}@c.us`, type: 'image', directPath: '/v/x', mimetype: 'image/png' });
    client.receive(raw);
    client.state.media.set(raw.id._serialized, { mimetype: 'image/png', data: Buffer.from('PNGDATA'), filename: null });
    await expect(live.downloadMedia(raw.id._serialized, 1000)).resolves.toEqual({
      data: Buffer.from('PNGDATA'),
      mime: 'image/png',
      name: null,
    });
    await expect(driver.downloadMedia(raw.id._serialized, 1000)).resolves.toMatchObject({
      data: Buffer.from('PNGDATA'),
    });
    await expect(live.downloadMedia(raw.id._serialized, 3)).rejects.toMatchObject({ permanent: true });
    await live.close();
    await expect(driver.downloadMedia(raw.id._serialized, 1000)).rejects.toMatchObject({ permanent: false });
  });

  it('checkNumber: either ninth-digit form, answered with the form WhatsApp knows', async () => {
    const { live } = await openConnected();
    await expect(live.checkNumber(CUSTOMER)).resolves.toEqual({ exists: true, number: CUSTOMER_WA });
    await expect(live.checkNumber(CUSTOMER_WA)).resolves.toEqual({ exists: true, number: CUSTOMER_WA });
    await expect(live.checkNumber('5531977776666')).resolves.toEqual({ exists: false, number: null });
  });

  it("profilePicture: the library's getProfilePicUrl of the chat as WhatsApp knows it; null without one", async () => {
    const GROUP = '120363000000000009@g.us';
    const { live, client } = await openConnected(undefined, (c) => {
      c.state.pictures.set(`${CUSTOMER_WA}@c.us`, 'https://pps.whatsapp.net/v/t61/customer.jpg?oh=1');
      c.state.pictures.set(GROUP, 'https://pps.whatsapp.net/v/t61/group.jpg?oh=2');
      c.state.pictures.set('5531966665555@c.us', undefined);
      c.state.registered.add('5531966665555');
    });
    client.calls.length = 0;
    await expect(live.profilePicture!(CUSTOMER)).resolves.toBe('https://pps.whatsapp.net/v/t61/customer.jpg?oh=1');
    await expect(live.profilePicture!(GROUP)).resolves.toBe('https://pps.whatsapp.net/v/t61/group.jpg?oh=2');
    // No picture, or hidden by privacy: the library answers undefined.
    await expect(live.profilePicture!('5531966665555')).resolves.toBeNull();
    // Not on WhatsApp at all: no picture either, and no picture query.
    await expect(live.profilePicture!('5531977776666')).resolves.toBeNull();
    expect(client.callsOf('getProfilePicUrl')).toEqual([[`${CUSTOMER_WA}@c.us`], [GROUP], ['5531966665555@c.us']]);
  });
});

export type { LiveSession };

describe('wwebjs driver: the login history import', () => {
  const GROUP = '120363000000000001@g.us';
  const DAY = 86_400;
  const options = { from: 1_750_000_000_000, to: 1_750_000_000_000 + 10 * DAY * 1000, groups: false };
  const history = (client: FakeWwebjsClient) => {
    client.state.chats = [
      {
        id: `${CUSTOMER_WA}@c.us`,
        isGroup: false,
        history: [
          rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'antes da janela', t: 1_750_000_000 - DAY }),
          rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'dentro 1', t: 1_750_000_000 + DAY }),
          rawIncoming({ from: `${CUSTOMER_WA}@c.us`, body: 'dentro 2', t: 1_750_000_000 + 2 * DAY }),
        ],
      },
      {
        id: GROUP,
        isGroup: true,
        history: [
          rawIncoming({ from: GROUP, author: `${CUSTOMER_WA}@c.us`, body: 'no grupo', t: 1_750_000_000 + DAY }),
        ],
      },
      { id: 'status@broadcast', isGroup: false, history: [] },
    ];
  };

  async function login(importOptions: typeof options | null, resume = false) {
    const h = harness();
    const factory = fakeClientFactory((client) => {
      client.state.registered.add(CUSTOMER_WA);
      history(client);
    });
    const driver = createWwebjsDriver({ makeClient: factory.makeClient, dataDir, loginTimeoutMs: 60_000 });
    await driver.open(
      channel({ historyImport: importOptions && { ...importOptions, queueId: null, closeTickets: false } }),
      h.ctx,
    );
    const client = factory.last();
    if (!resume) client.showQr('2@qr');
    client.connect();
    await settle();
    await settle();
    return { h, client };
  }

  it('after a fresh login: the chats within the dates, groups left out, marked imported, with progress and an end', async () => {
    const { h } = await login(options);
    const imported = h.events.filter((e) => e.kind === 'message');
    expect(imported.map((e) => (e as { body: string }).body)).toEqual(['dentro 1', 'dentro 2']);
    expect(imported.every((e) => (e as { imported?: boolean }).imported === true)).toBe(true);
    expect(imported[0]).toMatchObject({ party: { number: CUSTOMER_WA } });
    expect(h.events.filter((e) => e.kind === 'history-import')).toEqual([
      { kind: 'history-import', total: 2, done: false },
      { kind: 'history-import', total: 2, done: true },
    ]);
  });

  it('imports group chats when the channel asks for them', async () => {
    const { h } = await login({ ...options, groups: true });
    const bodies = h.events.filter((e) => e.kind === 'message').map((e) => (e as { body: string }).body);
    expect(bodies).toEqual(['dentro 1', 'dentro 2', 'no grupo']);
  });

  it('nothing when the import is off, and nothing on a resume (no QR shown: not a new login)', async () => {
    const off = await login(null);
    expect(off.client.callsOf('getChats')).toEqual([]);
    expect(off.h.events.filter((e) => e.kind === 'message' || e.kind === 'history-import')).toEqual([]);
    const resumed = await login(options, true);
    expect(resumed.client.callsOf('getChats')).toEqual([]);
  });
});

/**
 * The Wuzapi adapter alone: webhook bodies of every kind (from fixtures in Wuzapi's real shape, JSON and form
 * encoded) become the right InboundEvents, the HMAC check accepts only the exact signed bytes, and every provider
 * call is the exact HTTP request Wuzapi expects (recorded by the simulator over real HTTP).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';
import {
  createWuzapiAdapter,
  isOwnWuzapiMessageId,
  newWuzapiMessageId,
  wuzapiSignature,
  type WuzapiAdapter,
} from './wuzapi.adapter.js';
import { goFormEncode, startWuzapiSimulator, type WuzapiSimulator } from './wuzapi.simulator.js';
import { wuzapiUserIdOf } from './wuzapi.identity.js';

const TOKEN = 'MEOW-USER-TOKEN-0001';
const SECRET = 'c2VjcmV0LWZvci13dXphcGktdGVzdHMtb25seS0xMjM0';
const events = JSON.parse(fs.readFileSync(new URL('./fixtures/events.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;
const formFixture = fs.readFileSync(new URL('./fixtures/text-message.form.txt', import.meta.url), 'utf8');

let sim: WuzapiSimulator;
let adapter: WuzapiAdapter;
let ids = 0;
let channel: ChannelCredentials;

/** The body as the webhook route hands it over: a form becomes an object of strings. */
const asForm = (event: object) =>
  Object.fromEntries(new URLSearchParams(goFormEncode({ jsonData: JSON.stringify(event), token: TOKEN })));
const parse = (name: string) => adapter.parseInbound(channel, events[name]);

beforeAll(async () => {
  sim = await startWuzapiSimulator();
  adapter = createWuzapiAdapter({ newMessageId: () => `3EB0TEST${String((ids += 1)).padStart(4, '0')}` });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.calls.length = 0;
  sim.users.clear();
  sim.addUser(TOKEN);
  channel = {
    id: 7,
    tenantId: 1,
    type: 'meow',
    name: 'Loja',
    number: null,
    tokenTelegram: null,
    tokenAPI: TOKEN,
    wabaId: 'loja01',
    bmToken: null,
    wabaVersion: '20.0',
    remotePath: `${sim.url}/`,
    webhookSecret: SECRET,
    providerState: {},
    routing: { queueId: null, userId: null },
  };
});

describe('parseInbound: messages', () => {
  const maria = {
    chatId: '5511987650001',
    isGroup: false,
    name: 'Maria Souza',
    number: '5511987650001',
    idField: 'number',
  };

  it('a text, from the JSON body and from the form body Wuzapi sends by default', () => {
    const expected = [
      {
        kind: 'message',
        providerMessageId: '3A1F2B3C4D5E6F708192',
        party: maria,
        fromMe: false,
        timestamp: Date.parse('2025-11-21T01:20:00-03:00'),
        mediaType: 'chat',
        body: 'Olá, preciso de ajuda com meu pedido',
        media: null,
        meta: null,
        isSticker: false,
        quotedProviderMessageId: null,
      },
    ];
    expect(parse('text')).toEqual(expected);
    expect(adapter.parseInbound(channel, asForm(events.text!))).toEqual(expected);
    expect(adapter.parseInbound(channel, Object.fromEntries(new URLSearchParams(formFixture)))).toEqual(expected);
  });

  it('a reply names the quoted message', () => {
    expect(parse('reply')[0]).toMatchObject({
      body: 'Pode ser amanhã?',
      quotedProviderMessageId: '3EB0AAAABBBBCCCCDDDD0001',
    });
  });

  it('media: image, video, voice note, audio, captioned document, sticker carry a download reference', () => {
    const image = parse('image')[0] as Extract<ReturnType<typeof parse>[number], { kind: 'message' }>;
    expect(image).toMatchObject({
      mediaType: 'image',
      body: 'a nota fiscal',
      media: { mime: 'image/jpeg', size: 2039 },
    });
    expect(JSON.parse(image.media!.ref)).toEqual({
      kind: 'image',
      Url: expect.stringContaining('https://mmg.whatsapp.net/'),
      DirectPath: expect.stringContaining('/v/t62.7118-24/'),
      MediaKey: 'vq0RR0nYGkxm2HrpwUp3sK8A7Nr1KUcOiBHrT1hg+PU=',
      Mimetype: 'image/jpeg',
      FileEncSHA256: '6bMVZ5dRf9JKxJSUgg4w1h3iSYA3dM8gEQxaMPwoONc=',
      FileSHA256: 'nMthnfkUWQiMfNJpA6K9+ft+Dx9Mb1STs+9wMHjeo/M=',
      FileLength: 2039,
    });
    expect(parse('video')[0]).toMatchObject({ mediaType: 'video', body: 'olha isso', media: { mime: 'video/mp4' } });
    expect(parse('ptt')[0]).toMatchObject({ mediaType: 'ptt', media: { mime: 'audio/ogg; codecs=opus' } });
    expect(parse('audio')[0]).toMatchObject({ mediaType: 'audio', media: { mime: 'audio/mpeg' } });
    const doc = parse('document')[0] as { media: { ref: string; name: string } };
    expect(doc).toMatchObject({ mediaType: 'application', body: 'segue o boleto', media: { name: 'boleto.pdf' } });
    expect(JSON.parse(doc.media.ref)).toMatchObject({ kind: 'document', Mimetype: 'application/pdf' });
    const sticker = parse('sticker')[0] as { media: { ref: string } };
    expect(sticker).toMatchObject({ mediaType: 'sticker', isSticker: true });
    expect(JSON.parse(sticker.media.ref)).toMatchObject({ kind: 'image', Mimetype: 'image/webp' });
    expect(parse('ephemeral-view-once')[0]).toMatchObject({ mediaType: 'image', media: { size: 1500 } });
  });

  it('location and contact card', () => {
    expect(parse('location')[0]).toMatchObject({
      mediaType: 'location',
      body: 'Loja Centro',
      meta: JSON.stringify({ latitude: -23.55052, longitude: -46.633308, name: 'Loja Centro' }),
    });
    expect(parse('contact')[0]).toMatchObject({
      mediaType: 'vcard',
      body: 'João Silva',
      meta: expect.stringContaining('waid=5511955550000'),
    });
  });

  it('reaction, edit and revoke name the original message', () => {
    expect(parse('reaction')).toEqual([
      expect.objectContaining({
        kind: 'reaction',
        providerMessageId: '3EB0AAAABBBBCCCCDDDD0001',
        reaction: '👍',
        party: maria,
      }),
    ]);
    expect(parse('edit')).toEqual([
      expect.objectContaining({
        kind: 'edit',
        providerMessageId: '3A1F2B3C4D5E6F708192',
        body: 'Olá, preciso de ajuda com meu pedido 4521',
      }),
    ]);
    expect(parse('revoke')).toEqual([
      expect.objectContaining({ kind: 'delete', providerMessageId: '3A1F2B3C4D5E6F708193' }),
    ]);
  });

  it('a group message: the group is the chat, the member (phone from SenderAlt) the participant', () => {
    expect(parse('group')[0]).toMatchObject({
      party: {
        chatId: '120363040512345678@g.us',
        isGroup: true,
        idField: 'number',
        participant: { id: '5511912340002', name: 'Bia', number: '5511912340002', idField: 'number' },
      },
      body: 'Bom dia, grupo!',
    });
  });

  it('fromMe (written on the phone) names the chat partner, not us', () => {
    expect(parse('from-me')[0]).toMatchObject({
      fromMe: true,
      party: { chatId: '5511987650001', name: '5511987650001' },
    });
  });

  it('LID addressing resolves to the phone number: same contact as the phone JID', () => {
    expect(parse('lid')[0]).toMatchObject({ party: { chatId: '5511987650001', number: '5511987650001' } });
    expect(parse('lid-from-me')[0]).toMatchObject({ fromMe: true, party: { chatId: '5511987650001' } });
  });

  it('a 12-digit Brazilian JID is stored as WhatsApp gave it (12 digits), as every WhatsApp channel does', () => {
    const event = structuredClone(events.text!) as { event: { Info: Record<string, unknown> } };
    Object.assign(event.event.Info, { Chat: '556188887777@s.whatsapp.net', Sender: '556188887777@s.whatsapp.net' });
    delete event.event.Info.SenderAlt;
    expect(adapter.parseInbound(channel, event)[0]).toMatchObject({
      party: { chatId: '556188887777', number: '556188887777' },
    });
  });

  it('kinds the inbox does not show are skipped, not refused', () => {
    expect(parse('poll')).toEqual([]);
    expect(parse('presence')).toEqual([]);
  });

  it('a malformed body is a ZodError (the route answers 400)', () => {
    expect(() => adapter.parseInbound(channel, { jsonData: '{not json' })).toThrow();
    expect(() => adapter.parseInbound(channel, { type: 'Message', event: { Info: { Chat: 'x' } } })).toThrow();
    expect(() => adapter.parseInbound(channel, 'text')).toThrow();
  });
});

describe('parseInbound: receipts and session', () => {
  it('Delivered -> ack 2, Read -> ack 3 for every id; ReadSelf moves nothing', () => {
    const at = Date.parse('2025-11-21T01:25:00-03:00');
    expect(parse('delivered')).toEqual([
      { kind: 'ack', providerMessageId: '3EB0AAAABBBBCCCCDDDD0001', ack: 2, timestamp: at },
    ]);
    expect(parse('read')).toEqual([
      { kind: 'ack', providerMessageId: '3EB0AAAABBBBCCCCDDDD0001', ack: 3, timestamp: at },
      { kind: 'ack', providerMessageId: '3EB0AAAABBBBCCCCDDDD0002', ack: 3, timestamp: at },
    ]);
    expect(parse('read-self')).toEqual([]);
  });

  it('QR, QRTimeout, PairSuccess, Connected, Disconnected, LoggedOut', () => {
    expect(parse('qr')).toEqual([{ kind: 'session', status: 'qrcode', qrcode: events.qr!.qrCodeBase64 }]);
    expect(parse('qr-timeout')).toEqual([{ kind: 'session', status: 'TIMEOUT' }]);
    expect(parse('pair-success')).toEqual([{ kind: 'session', status: 'CONNECTED', number: '5511911112222' }]);
    expect(parse('connected')).toEqual([{ kind: 'session', status: 'CONNECTED' }]);
    // whatsmeow reconnects by itself: on its way back, not switched off (which would drop its next webhooks).
    expect(parse('disconnected')).toEqual([{ kind: 'session', status: 'OPENING' }]);
    expect(parse('logged-out')).toEqual([{ kind: 'session', status: 'DISCONNECTED' }]);
  });
});

describe('verifyInbound: x-hmac-signature over the raw body', () => {
  const json = Buffer.from(JSON.stringify(events.text));
  const form = Buffer.from(formFixture);
  const verify = (rawBody: Buffer | undefined, signature?: string) =>
    adapter.verifyInbound(channel, {
      headers: signature === undefined ? {} : { 'x-hmac-signature': signature },
      body: {},
      rawBody,
    });

  it('accepts the exact signed bytes (JSON and form), upper or lower case hex', () => {
    expect(verify(json, wuzapiSignature(json, SECRET))).toBe(true);
    expect(verify(form, wuzapiSignature(form, SECRET))).toBe(true);
    expect(verify(form, wuzapiSignature(form, SECRET).toUpperCase())).toBe(true);
  });

  it('refuses a wrong key, a missing header, a missing raw body and a changed body', () => {
    expect(verify(json, wuzapiSignature(json, `${SECRET}x`))).toBe(false);
    expect(verify(json)).toBe(false);
    expect(verify(undefined, wuzapiSignature(json, SECRET))).toBe(false);
    const changed = Buffer.from(JSON.stringify({ ...events.text, type: 'Message ' }));
    expect(verify(changed, wuzapiSignature(json, SECRET))).toBe(false);
    expect(verify(json, 'abc')).toBe(false);
  });
});

describe("verifyInbound: the body names the channel's own Wuzapi user", () => {
  const started = () => ({ ...channel, providerState: { userId: 'user-7' } });
  const signed = (ch: ChannelCredentials, body: Record<string, unknown>) => {
    const raw = Buffer.from(JSON.stringify(body));
    return adapter.verifyInbound(ch, {
      headers: { 'x-hmac-signature': wuzapiSignature(raw, SECRET) },
      body,
      rawBody: raw,
    });
  };

  it("accepts the channel's userID (JSON) and token (form); refuses another user's, even signed", () => {
    expect(signed(started(), { ...events.text, userID: 'user-7' })).toBe(true);
    expect(signed(started(), { ...events.text, userID: 'user-8' })).toBe(false);
    expect(signed(started(), { jsonData: '{}', token: TOKEN })).toBe(true);
    expect(signed(started(), { jsonData: '{}', token: 'token-of-another-user' })).toBe(false);
    // No user id learnt at the start: a body naming one cannot be shown to be this channel's.
    expect(signed(channel, { ...events.text, userID: 'user-7' })).toBe(false);
    // A body naming no user (older releases) is the signature's alone.
    expect(signed(channel, { ...events.text })).toBe(true);
    expect(wuzapiUserIdOf({ id: 12 })).toBe('12');
    expect(wuzapiUserIdOf({})).toBeNull();
  });
});

describe('provider calls: the exact HTTP requests', () => {
  const jpeg = Buffer.from('JPEGDATA');
  const last = () => sim.calls.at(-1)!;

  beforeEach(() => sim.login(TOKEN, '5511911112222:14@s.whatsapp.net'));

  it('text with the Token header; the answer gives the id and the server time', async () => {
    const result = await adapter.send(channel, {
      to: '5511987650001',
      body: 'Oi!',
      mediaType: 'chat',
      media: null,
      replyToProviderMessageId: null,
    });
    expect(last()).toEqual({
      token: TOKEN,
      method: 'POST',
      path: '/chat/send/text',
      query: {},
      body: { Phone: '5511987650001', Body: 'Oi!', Id: expect.stringMatching(/^3EB0TEST/) },
    });
    expect(result).toEqual({ providerMessageId: last().body.Id, ack: 1, timestamp: expect.any(Number) });
  });

  it("a stored message's clientMessageId seeds the id of each attempt", async () => {
    const seeded = createWuzapiAdapter();
    const message = {
      to: '5511987650001',
      body: 'Oi de novo',
      mediaType: 'chat' as const,
      media: null,
      replyToProviderMessageId: null,
      clientMessageId: '3EB0ABCDEF0123456789AB',
    };
    await seeded.send(channel, message);
    const first = last().body.Id;
    await seeded.send(channel, message);
    expect(last().body.Id).toBe(first);
    expect(first).toBe(newWuzapiMessageId(channel.webhookSecret, '3EB0ABCDEF0123456789AB'));
  });

  it('a Brazilian mobile goes to the form WhatsApp knows (/user/check), asked once per channel and number', async () => {
    sim.registered.add('556188887777');
    try {
      const text = (body: string) => ({
        to: '5561988887777',
        body,
        mediaType: 'chat' as const,
        media: null,
        replyToProviderMessageId: null,
      });
      await adapter.send(channel, text('um'));
      expect(last().body).toMatchObject({ Phone: '556188887777', Body: 'um' });
      await adapter.send(channel, text('dois'));
      expect(last().body).toMatchObject({ Phone: '556188887777', Body: 'dois' });
      expect(sim.callsOf('/user/check').map((c) => c.body)).toEqual([{ Phone: ['5561988887777', '556188887777'] }]);
      // A number with one form, and a group, are addressed as they are, without asking.
      await adapter.send(channel, { ...text('três'), to: '14155550123' });
      expect(last().body).toMatchObject({ Phone: '14155550123' });
      expect(sim.callsOf('/user/check')).toHaveLength(1);
    } finally {
      sim.registered.clear();
    }
  });

  it('a reply quotes with StanzaId and the author', async () => {
    await adapter.send(channel, {
      to: '5511987650001',
      body: 'Sim',
      mediaType: 'chat',
      media: null,
      replyToProviderMessageId: '3A1F2B3C4D5E6F708192',
    });
    expect(last().body.ContextInfo).toEqual({
      StanzaId: '3A1F2B3C4D5E6F708192',
      Participant: '5511987650001@s.whatsapp.net',
    });
  });

  it('image, video, ptt, audio, document, sticker by their endpoints and data URLs', async () => {
    const send = (
      mediaType: 'image' | 'video' | 'ptt' | 'audio' | 'application' | 'sticker',
      mime: string,
      body = '',
    ) =>
      adapter.send(channel, {
        to: '5511987650001',
        body,
        mediaType,
        media: { data: jpeg, mime, name: 'f.bin' },
        replyToProviderMessageId: null,
      });
    const b64 = jpeg.toString('base64');

    await send('image', 'image/jpeg', 'nota');
    expect(last()).toMatchObject({
      path: '/chat/send/image',
      body: { Phone: '5511987650001', Image: `data:image/jpeg;base64,${b64}`, Caption: 'nota', MimeType: 'image/jpeg' },
    });
    await send('video', 'video/mp4', 'vid');
    expect(last()).toMatchObject({
      path: '/chat/send/video',
      body: { Video: `data:video/mp4;base64,${b64}`, Caption: 'vid' },
    });
    await send('ptt', 'audio/ogg; codecs=opus');
    expect(last()).toMatchObject({
      path: '/chat/send/audio',
      body: { Audio: `data:audio/ogg; codecs=opus;base64,${b64}`, ptt: true, mimetype: 'audio/ogg; codecs=opus' },
    });
    await send('audio', 'audio/mpeg', 'ouça');
    const [audio, caption] = sim.calls.slice(-2);
    expect(audio).toMatchObject({ path: '/chat/send/audio', body: { ptt: false } });
    expect(caption).toMatchObject({ path: '/chat/send/text', body: { Body: 'ouça' } });
    await send('application', 'application/pdf', 'boleto');
    expect(last()).toMatchObject({
      path: '/chat/send/document',
      body: {
        Document: `data:application/octet-stream;base64,${b64}`,
        FileName: 'f.bin',
        MimeType: 'application/pdf',
        Caption: 'boleto',
      },
    });
    await send('sticker', 'image/webp');
    expect(last()).toMatchObject({ path: '/chat/send/sticker', body: { Sticker: `data:image/webp;base64,${b64}` } });
    // A type the image endpoint refuses goes as a document.
    await send('image', 'image/gif');
    expect(last().path).toBe('/chat/send/document');
  });

  it('edit, delete, react (own messages with me:, empty reaction is "remove")', async () => {
    await adapter.edit(channel, '5511987650001', '3EB0AAA', 'novo');
    expect(last()).toMatchObject({
      path: '/chat/send/edit',
      body: { Phone: '5511987650001', Id: '3EB0AAA', Body: 'novo' },
    });
    await adapter.delete(channel, '5511987650001', '3EB0AAA');
    expect(last()).toMatchObject({ path: '/chat/delete', body: { Phone: '5511987650001', Id: '3EB0AAA' } });
    await adapter.react(channel, '5511987650001', '3A1F2B3C4D5E6F708192', '❤️');
    expect(last()).toMatchObject({
      path: '/chat/react',
      body: { Phone: '5511987650001', Body: '❤️', Id: '3A1F2B3C4D5E6F708192' },
    });
    const own = newWuzapiMessageId(SECRET);
    await adapter.react(channel, '5511987650001', own, '');
    expect(last()).toMatchObject({ path: '/chat/react', body: { Body: 'remove', Id: `me:${own}` } });
  });

  it('our message ids carry a mark only the channel secret makes', () => {
    const id = newWuzapiMessageId(SECRET);
    expect(id).toMatch(/^3EB0[0-9A-F]{20}$/);
    expect(isOwnWuzapiMessageId(SECRET, id)).toBe(true);
    expect(isOwnWuzapiMessageId(`${SECRET}x`, id)).toBe(false);
    expect(isOwnWuzapiMessageId(SECRET, `${id.slice(0, 23)}0`)).toBe(id.endsWith('0'));
    expect(isOwnWuzapiMessageId(SECRET, '3A1F2B3C4D5E6F708192')).toBe(false);
  });

  it("a stored message's every attempt goes out under one id (a send repeated after a crash is one message)", () => {
    const seeded = newWuzapiMessageId(SECRET, '3EB0ABCDEF0123456789AB');
    expect(newWuzapiMessageId(SECRET, '3EB0ABCDEF0123456789AB')).toBe(seeded);
    expect(newWuzapiMessageId(SECRET, '3EB0ABCDEF0123456789AC')).not.toBe(seeded);
    expect(isOwnWuzapiMessageId(SECRET, seeded)).toBe(true);
    expect(newWuzapiMessageId(SECRET)).not.toBe(newWuzapiMessageId(SECRET));
  });

  it('download: the endpoint of the kind with the stored fields; the byte limit holds', async () => {
    const image = parse('image')[0] as { media: { ref: string } };
    const { DirectPath } = JSON.parse(image.media.ref) as { DirectPath: string };
    sim.media.set(DirectPath, { data: jpeg, mime: 'image/jpeg' });
    const file = await adapter.downloadMedia(channel, image.media.ref, 10_000);
    expect(file).toEqual({ data: jpeg, mime: 'image/jpeg', name: null });
    expect(last()).toMatchObject({
      path: '/chat/downloadimage',
      body: { DirectPath, MediaKey: expect.any(String), FileLength: 2039 },
    });
    expect(last().body).not.toHaveProperty('kind');
    // Declared larger than the limit: refused before any call.
    const calls = sim.calls.length;
    await expect(adapter.downloadMedia(channel, image.media.ref, 100)).rejects.toMatchObject({ permanent: true });
    expect(sim.calls.length).toBe(calls);
    // Declared small but the bytes are more than the limit.
    sim.media.set(DirectPath, { data: Buffer.alloc(5000), mime: 'image/jpeg' });
    await expect(adapter.downloadMedia(channel, image.media.ref, 4000)).rejects.toThrow(/too large/);
    await expect(adapter.downloadMedia(channel, '{"kind":"x"}', 4000)).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('session calls', () => {
  it('start: HMAC key, webhook with events, connect; not logged in -> qrcode with the QR', async () => {
    const started = await adapter.start(channel, 'https://conversa.example/api/webhooks/meow/7');
    expect(sim.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /session/hmac/config',
      'POST /webhook',
      'POST /session/connect',
      'GET /session/status',
      'GET /session/qr',
    ]);
    expect(sim.calls[0]!.body).toEqual({ hmac_key: SECRET });
    expect(sim.calls[1]!.body).toMatchObject({
      webhookurl: 'https://conversa.example/api/webhooks/meow/7',
      events: expect.arrayContaining(['Message', 'ReadReceipt', 'QR', 'Connected', 'LoggedOut']),
    });
    expect(sim.calls[2]!.body).toMatchObject({ Immediate: true, Subscribe: expect.arrayContaining(['Message']) });
    expect(started).toMatchObject({
      status: 'qrcode',
      qrcode: expect.stringMatching(/^data:image\/png;base64,/),
      number: null,
    });
  });

  it('start on a logged-in session (connect answers "already connected") -> CONNECTED with the number', async () => {
    sim.login(TOKEN, '5511911112222:14@s.whatsapp.net');
    const started = await adapter.start(channel, 'https://conversa.example/api/webhooks/meow/7');
    expect(started).toMatchObject({
      status: 'CONNECTED',
      number: '5511911112222',
      // The user id /session/status answers: the `userID` its JSON webhooks must carry.
      providerState: { jid: '5511911112222:14@s.whatsapp.net', userId: sim.users.get(TOKEN)!.live.id },
    });
  });

  it('a wrong token is a permanent provider error; a gateway 502 is not', async () => {
    await expect(adapter.start({ ...channel, tokenAPI: 'other' }, 'https://x')).rejects.toMatchObject({
      permanent: true,
      status: 401,
    });
    sim.failNext('/session/hmac/config', 502, 'bad gateway');
    await expect(adapter.start(channel, 'https://x')).rejects.toMatchObject({ permanent: false });
    await expect(adapter.start({ ...channel, remotePath: null }, 'https://x')).rejects.toMatchObject({
      permanent: true,
    });
  });

  it('pairing code by phone number', async () => {
    await adapter.start(channel, 'https://x');
    expect(await adapter.pairPhone(channel, '5511911112222')).toBe('K7QF-2MXD');
    expect(sim.callsOf('/session/pairphone')[0]!.body).toEqual({ Phone: '5511911112222' });
  });

  it('stop: logout; a session that never logged in is disconnected instead', async () => {
    sim.login(TOKEN, '5511911112222:14@s.whatsapp.net');
    await adapter.stop(channel);
    expect(sim.calls.map((c) => c.path)).toEqual(['/session/logout']);
    sim.calls.length = 0;
    await adapter.start(channel, 'https://x');
    await adapter.stop(channel);
    expect(sim.calls.slice(-2).map((c) => c.path)).toEqual(['/session/logout', '/session/disconnect']);
    expect(sim.users.get(TOKEN)!.connected).toBe(false);
  });
});

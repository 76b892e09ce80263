/** The Evolution adapter: recorded webhook payloads in, normalised events out; each REST call against the simulator. */
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';
import { createEvolutionAdapter, evolutionInstanceName } from './evolution.adapter.js';
import { EVOLUTION_SEND_ERROR } from './evolution.parse.js';
import { EVOLUTION_SECRET_HEADER } from './evolution.schemas.js';
import { startEvolutionSimulator, type EvolutionSimulator } from './evolution.simulator.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

let sim: EvolutionSimulator;
let channel: ChannelCredentials;
const adapter = createEvolutionAdapter({ timeoutMs: 2000 });
const parse = (name: string) => adapter.parseInbound(channel, fixture(name));

beforeAll(async () => {
  sim = await startEvolutionSimulator();
  channel = {
    id: 7,
    tenantId: 1,
    type: 'evo',
    name: 'Loja',
    number: null,
    tokenTelegram: null,
    tokenAPI: sim.apiKey,
    wabaId: 'Loja',
    bmToken: null,
    wabaVersion: '20.0',
    remotePath: sim.url,
    webhookSecret: 'evo-secret_0123456789',
    providerState: {},
    routing: { queueId: null, userId: null },
  };
});
afterAll(async () => sim.close());
beforeEach(() => void sim.calls.splice(0));

const maria = {
  chatId: '5511987654321',
  isGroup: false,
  name: 'Maria Souza',
  number: '5511987654321',
  idField: 'number',
};

describe('parseInbound', () => {
  it('turns a conversation into a message keyed by the WhatsApp id, the chat by phone number', () => {
    expect(parse('text')).toEqual([
      {
        kind: 'message',
        providerMessageId: '3A5F1C2B9D8E7F60A1B2',
        party: maria,
        fromMe: false,
        timestamp: 1763700000000,
        mediaType: 'chat',
        media: null,
        body: 'Olá, preciso de ajuda com meu pedido',
        meta: null,
        isSticker: false,
        quotedProviderMessageId: null,
      },
    ]);
  });

  it('reads extendedTextMessage text and quotes from the inner or the top-level contextInfo', () => {
    expect(parse('extended-text')).toMatchObject([
      { body: 'veja https://loja.example/p/1', quotedProviderMessageId: '3EB0AA11BB22CC33DD44' },
    ]);
    expect(parse('reply')).toMatchObject([
      { body: 'Sim, esse mesmo', quotedProviderMessageId: '3EB0AA11BB22CC33DD44' },
    ]);
  });

  it('maps every media kind with a key reference, mime, name and size', () => {
    const ref = (id: string) => JSON.stringify({ remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id });
    expect(parse('image')).toMatchObject([
      {
        mediaType: 'image',
        body: 'a nota fiscal',
        media: { ref: ref('3A5F1C2B9D8E7F60A1B5'), mime: 'image/jpeg', name: null, size: 48213 },
      },
    ]);
    expect(parse('video')).toMatchObject([{ mediaType: 'video', body: '', media: { size: 1048576 } }]);
    expect(parse('audio-ptt')).toMatchObject([
      { mediaType: 'ptt', media: { mime: 'audio/ogg; codecs=opus', size: 8840 } },
    ]);
    expect(parse('document')).toMatchObject([
      { mediaType: 'application', body: 'segue o boleto', media: { name: 'boleto.pdf', mime: 'application/pdf' } },
    ]);
    expect(parse('sticker')).toMatchObject([
      { mediaType: 'sticker', isSticker: true, body: '', media: { mime: 'image/webp' } },
    ]);
  });

  it('maps locations and vCards', () => {
    const [location] = parse('location');
    expect(location).toMatchObject({ mediaType: 'location', body: 'Loja Centro, Praça da Sé, São Paulo' });
    expect(JSON.parse((location as { meta: string }).meta)).toEqual({
      latitude: -23.55052,
      longitude: -46.633308,
      name: 'Loja Centro, Praça da Sé, São Paulo',
    });
    const [card] = parse('contact-vcard');
    expect(card).toMatchObject({ mediaType: 'vcard', body: 'João Lima 5511912345678' });
    expect((card as { meta: string }).meta).toContain('FN:João Lima');
  });

  it('maps reactions, edits and revokes to the message they name', () => {
    expect(parse('reaction')).toMatchObject([
      { kind: 'reaction', providerMessageId: '3EB0AA11BB22CC33DD44', reaction: '👍', party: maria },
    ]);
    expect(parse('edited')).toMatchObject([
      {
        kind: 'edit',
        providerMessageId: '3A5F1C2B9D8E7F60A1B2',
        body: 'Olá, preciso de ajuda com o pedido 123',
        timestamp: 1763700100000,
      },
    ]);
    expect(parse('revoke')).toMatchObject([{ kind: 'delete', providerMessageId: '3A5F1C2B9D8E7F60A1B2' }]);
    // A revoke inside messages.upsert (protocolMessage REVOKE = 0) is a delete too.
    const upsert = fixture('text');
    (upsert.data as { message: unknown }).message = {
      protocolMessage: { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'OLD1' }, type: 0 },
    };
    expect(adapter.parseInbound(channel, upsert)).toMatchObject([{ kind: 'delete', providerMessageId: 'OLD1' }]);
  });

  it('keys a group by its JID and names the member, resolving a LID member by participantAlt', () => {
    expect(parse('group')).toMatchObject([
      {
        kind: 'message',
        body: 'Bom dia, grupo!',
        party: {
          chatId: '120363025246125486@g.us',
          isGroup: true,
          idField: 'number',
          participant: { id: '5511912345678', name: 'João Lima', number: '5511912345678', idField: 'number' },
        },
      },
    ]);
  });

  it('resolves a LID chat to its phone number (remoteJidAlt) and drops a LID without one', () => {
    expect(parse('lid')).toMatchObject([
      { party: { chatId: '5511955554444', number: '5511955554444', name: 'Ana Paula', isGroup: false } },
    ]);
    const senderPn = fixture('lid');
    const key = (senderPn.data as { key: Record<string, unknown> }).key;
    delete key.remoteJidAlt;
    key.senderPn = '5511955554444@s.whatsapp.net';
    expect(adapter.parseInbound(channel, senderPn)).toMatchObject([{ party: { chatId: '5511955554444' } }]);
    expect(parse('lid-without-phone')).toEqual([]);
  });

  it('stores a 12-digit Brazilian JID as WhatsApp gave it, as every WhatsApp channel does (replies reach that JID)', () => {
    const older = fixture('lid');
    const key = (older.data as { key: Record<string, unknown> }).key;
    key.remoteJid = '556188887777@s.whatsapp.net';
    delete key.remoteJidAlt;
    expect(adapter.parseInbound(channel, older)).toMatchObject([
      { party: { chatId: '556188887777', number: '556188887777' } },
    ]);
  });

  it('marks messages written on the phone fromMe, named by the number rather than the account', () => {
    expect(parse('from-me')).toMatchObject([
      { kind: 'message', fromMe: true, party: { chatId: '5511987654321', name: '5511987654321' } },
    ]);
  });

  it('turns receipts of our messages into acks, and ignores receipts of theirs', () => {
    expect(parse('update-read')).toMatchObject([{ kind: 'ack', providerMessageId: '3EB0AA11BB22CC33DD44', ack: 3 }]);
    const theirs = fixture('update-read');
    (theirs.data as { fromMe: boolean }).fromMe = false;
    expect(adapter.parseInbound(channel, theirs)).toEqual([]);
  });

  it('turns an ERROR status of our message into send-failed with its reason (not an ack)', () => {
    expect(parse('update-error')).toEqual([
      {
        kind: 'send-failed',
        providerMessageId: '3EB0AA11BB22CC33DD44',
        error: EVOLUTION_SEND_ERROR,
        timestamp: expect.any(Number),
      },
    ]);
    const theirs = fixture('update-error');
    (theirs.data as { fromMe: boolean }).fromMe = false;
    expect(adapter.parseInbound(channel, theirs)).toEqual([]);
  });

  it('turns connection and QR updates into session events', () => {
    expect(parse('connection-open')).toEqual([
      {
        kind: 'session',
        status: 'CONNECTED',
        number: '5511900000000',
        profilePicUrl: 'https://pps.whatsapp.net/v/loja.jpg',
      },
    ]);
    expect(parse('connection-close')).toEqual([{ kind: 'session', status: 'DISCONNECTED' }]);
    // Evolution's reconnection (after a close it recovers from, or a restart) is on its way: OPENING.
    expect(parse('connection-connecting')).toEqual([{ kind: 'session', status: 'OPENING' }]);
    expect(parse('qrcode-updated')).toEqual([
      { kind: 'session', status: 'qrcode', qrcode: '2@AbCdEf0123456789,xyz,abc==,def==', pairingCode: null },
    ]);
    const limit = {
      event: 'qrcode.updated',
      instance: 'Loja',
      data: { message: 'QR code limit reached', statusCode: 500 },
    };
    expect(adapter.parseInbound(channel, limit)).toEqual([{ kind: 'session', status: 'TIMEOUT' }]);
  });

  it('turns contacts.upsert into contact updates of people (not groups)', () => {
    expect(parse('contacts-upsert')).toEqual([
      {
        kind: 'contact',
        party: {
          chatId: '5511987654321',
          isGroup: false,
          name: 'Maria S.',
          number: '5511987654321',
          idField: 'number',
          profilePicUrl: 'https://pps.whatsapp.net/v/maria.jpg',
        },
      },
    ]);
  });

  it('ignores other instances, status broadcasts and unknown events; throws on malformed payloads', () => {
    expect(adapter.parseInbound(channel, { ...fixture('text'), instance: 'Outra' })).toEqual([]);
    const status = fixture('text');
    (status.data as { key: { remoteJid: string } }).key.remoteJid = 'status@broadcast';
    expect(adapter.parseInbound(channel, status)).toEqual([]);
    expect(adapter.parseInbound(channel, { event: 'presence.update', instance: 'Loja', data: {} })).toEqual([]);
    expect(() => adapter.parseInbound(channel, { event: 'messages.upsert', data: { key: {} } })).toThrow();
    expect(() => adapter.parseInbound(channel, 'nonsense')).toThrow();
  });
});

describe('verifyInbound', () => {
  it('accepts only the channel secret in the configured header, never the body apikey', () => {
    const own = { instance: 'Loja' };
    const verify = (headers: Record<string, string>, body: unknown = own) =>
      adapter.verifyInbound(channel, { headers, body });
    expect(verify({ [EVOLUTION_SECRET_HEADER]: 'evo-secret_0123456789' })).toBe(true);
    expect(verify({ [EVOLUTION_SECRET_HEADER]: 'evo-secret_0123456780' })).toBe(false);
    expect(verify({ [EVOLUTION_SECRET_HEADER]: 'evo-secret' })).toBe(false);
    expect(verify({}, { ...own, apikey: sim.apiKey })).toBe(false);
    expect(verify({ apikey: sim.apiKey })).toBe(false);
    expect(adapter.verifyHeaders!(channel, { [EVOLUTION_SECRET_HEADER]: 'evo-secret_0123456789' })).toBe(true);
    expect(adapter.verifyHeaders!(channel, { [EVOLUTION_SECRET_HEADER]: 'evo-secret' })).toBe(false);
  });

  it("refuses a body that is not the channel's instance: another instance, none, or another instance token", () => {
    const secret = { [EVOLUTION_SECRET_HEADER]: 'evo-secret_0123456789' };
    const recorded = {
      ...channel,
      providerState: {
        instanceName: 'Loja_0a1b2c3d4e5f60718293',
        instanceToken: 'TOKEN-OF-OUR-INSTANCE',
        instanceCreated: true,
        instanceGateway: sim.url,
      },
    };
    const verify = (ch: ChannelCredentials, body: unknown) => adapter.verifyInbound(ch, { headers: secret, body });
    // Before any start the stored name is the instance; afterwards the one the start recorded.
    expect(verify(channel, { instance: 'Loja', apikey: null })).toBe(true);
    expect(verify(channel, { instance: 'LojaCentro', apikey: null })).toBe(false);
    expect(verify(channel, { event: 'messages.upsert' })).toBe(false);
    expect(verify(channel, 'not an object')).toBe(false);
    expect(verify(recorded, { instance: 'Loja', apikey: null })).toBe(false);
    expect(verify(recorded, { instance: 'Loja_0a1b2c3d4e5f60718293', apikey: null })).toBe(true);
    // When Evolution exposes instance tokens, the body's apikey must be our instance's.
    expect(verify(recorded, { instance: 'Loja_0a1b2c3d4e5f60718293', apikey: 'TOKEN-OF-OUR-INSTANCE' })).toBe(true);
    expect(verify(recorded, { instance: 'Loja_0a1b2c3d4e5f60718293', apikey: 'TOKEN-OF-ANOTHER' })).toBe(false);
    // A record of another gateway is not this channel's instance there.
    expect(verify({ ...recorded, remotePath: 'https://evo.other.example' }, { instance: 'Loja' })).toBe(true);
  });
});

describe('sends', () => {
  beforeAll(() => {
    sim.instances.set('Loja', {
      name: 'Loja',
      state: 'open',
      qrCount: 0,
      ownerJid: '5511900000000@s.whatsapp.net',
      webhook: null,
      messages: new Map(),
      groups: new Map(),
      contacts: [],
    });
  });
  const text = (body: string, replyTo: string | null = null) => ({
    to: '5511987654321',
    body,
    mediaType: 'chat' as const,
    media: null,
    replyToProviderMessageId: replyTo,
  });

  it('sends text with the apikey header, quoting by message id, and returns the WhatsApp id at ack 1', async () => {
    const result = await adapter.send(channel, text('Seu pedido saiu', '3A5F1C2B9D8E7F60A1B2'));
    expect(result).toEqual({ providerMessageId: expect.stringMatching(/^3EB0/), ack: 1, timestamp: 1763800000000 });
    const [call] = sim.callsOf('message/sendText');
    expect(call).toMatchObject({ method: 'POST', instance: 'Loja', apikey: sim.apiKey });
    expect(call!.body).toEqual({
      number: '5511987654321',
      text: 'Seu pedido saiu',
      quoted: { key: { id: '3A5F1C2B9D8E7F60A1B2' } },
    });
  });

  it('sends images, videos, audio and documents through sendMedia as base64 with caption and file name', async () => {
    const file = (mime: string, name: string) => ({ data: Buffer.from('BYTES'), mime, name });
    await adapter.send(channel, { ...text('a foto'), mediaType: 'image', media: file('image/png', 'foto.png') });
    await adapter.send(channel, { ...text('video.mp4'), mediaType: 'video', media: file('video/mp4', 'video.mp4') });
    await adapter.send(channel, { ...text('musica.mp3'), mediaType: 'audio', media: file('audio/mpeg', 'musica.mp3') });
    await adapter.send(channel, {
      ...text('o boleto'),
      mediaType: 'application',
      media: file('application/pdf', 'b.pdf'),
    });
    const bodies = sim.callsOf('message/sendMedia').map((call) => call.body);
    const base64 = Buffer.from('BYTES').toString('base64');
    expect(bodies).toEqual([
      {
        number: '5511987654321',
        mediatype: 'image',
        mimetype: 'image/png',
        fileName: 'foto.png',
        media: base64,
        caption: 'a foto',
      },
      { number: '5511987654321', mediatype: 'video', mimetype: 'video/mp4', fileName: 'video.mp4', media: base64 },
      { number: '5511987654321', mediatype: 'audio', mimetype: 'audio/mpeg', fileName: 'musica.mp3', media: base64 },
      {
        number: '5511987654321',
        mediatype: 'document',
        mimetype: 'application/pdf',
        fileName: 'b.pdf',
        media: base64,
        caption: 'o boleto',
      },
    ]);
  });

  it('sends voice notes through sendWhatsAppAudio and stickers through sendSticker, to groups by JID', async () => {
    const voice = { data: Buffer.from('OggS'), mime: 'audio/ogg', name: '1763.ogg' };
    await adapter.send(channel, { ...text('1763.ogg'), mediaType: 'ptt', media: voice });
    const sticker = { data: Buffer.from('RIFF'), mime: 'image/webp', name: 's.webp' };
    await adapter.send(channel, { ...text(''), to: '120363025246125486@g.us', mediaType: 'sticker', media: sticker });
    expect(sim.callsOf('message/sendWhatsAppAudio')[0]!.body).toEqual({
      number: '5511987654321',
      audio: Buffer.from('OggS').toString('base64'),
    });
    expect(sim.callsOf('message/sendSticker')[0]!.body).toEqual({
      number: '120363025246125486@g.us',
      sticker: Buffer.from('RIFF').toString('base64'),
    });
    expect(sim.callsOf('message/sendText')).toHaveLength(0);
  });

  it('edits and deletes our message by key, and reacts with the stored key of the message', async () => {
    await adapter.edit(channel, '5511987654321', '3EB0AAA', 'novo texto');
    expect(sim.callsOf('chat/updateMessage')[0]!.body).toEqual({
      number: '5511987654321',
      text: 'novo texto',
      key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: true, id: '3EB0AAA' },
    });
    await adapter.delete(channel, '5511987654321', '3EB0AAA');
    expect(sim.callsOf('chat/deleteMessageForEveryone')[0]).toMatchObject({
      method: 'DELETE',
      body: { id: '3EB0AAA', remoteJid: '5511987654321@s.whatsapp.net', fromMe: true },
    });
    // A group member's message: the stored key names the chat, sender and participant.
    sim.instances.get('Loja')!.messages.set('GRP1', {
      key: {
        remoteJid: '120363025246125486@g.us',
        fromMe: false,
        id: 'GRP1',
        participant: '5511912345678@s.whatsapp.net',
      },
    });
    await adapter.react(channel, '120363025246125486@g.us', 'GRP1', '❤');
    await adapter.react(channel, '5511987654321', 'UNKNOWN', '');
    expect(sim.callsOf('message/sendReaction').map((call) => call.body)).toEqual([
      {
        key: {
          remoteJid: '120363025246125486@g.us',
          fromMe: false,
          id: 'GRP1',
          participant: '5511912345678@s.whatsapp.net',
        },
        reaction: '❤',
      },
      { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'UNKNOWN' }, reaction: '' },
    ]);
  });

  it('downloads media through getBase64FromMediaMessage by key, within the byte limit', async () => {
    sim.instances.get('Loja')!.messages.set('IMG1', {
      key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'IMG1' },
      media: { data: Buffer.from('JPEGDATA'), mimetype: 'image/jpeg', fileName: 'IMG1.jpeg' },
    });
    const ref = JSON.stringify({ remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'IMG1' });
    expect(await adapter.downloadMedia(channel, ref, 1024)).toEqual({
      data: Buffer.from('JPEGDATA'),
      mime: 'image/jpeg',
      name: 'IMG1.jpeg',
    });
    expect(sim.callsOf('chat/getBase64FromMediaMessage')[0]!.body).toEqual({
      message: { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id: 'IMG1' } },
      convertToMp4: false,
    });
    await expect(adapter.downloadMedia(channel, ref, 4)).rejects.toMatchObject({ permanent: true });
    await expect(adapter.downloadMedia(channel, 'AgAD-telegram', 1024)).rejects.toMatchObject({ permanent: true });
  });
});

describe('start, stop and failures', () => {
  it('creates a missing instance, registers the webhook with the secret header, and answers the QR code', async () => {
    const novo = { ...channel, name: 'Loja Nova!', wabaId: evolutionInstanceName('Loja Nova!') };
    expect(novo.wabaId).toBe('LojaNova');
    const started = await adapter.start(novo, 'https://conversa.example/api/webhooks/evo/8');
    const token = sim.instances.get('LojaNova')!.token;
    expect(token).toMatch(/^[0-9A-F]{48}$/);
    expect(started).toEqual({
      status: 'qrcode',
      qrcode: '2@sim-qr-LojaNova-1',
      pairingCode: null,
      number: null,
      providerState: {
        instanceName: 'LojaNova',
        instanceToken: token,
        instanceCreated: true,
        instanceGateway: sim.url,
        webhookUrl: 'https://conversa.example/api/webhooks/evo/8',
      },
    });
    expect(sim.calls.map((call) => call.route)).toEqual(['instance/connectionState', 'instance/create', 'webhook/set']);
    expect(sim.callsOf('instance/create')[0]!.body).toEqual({
      instanceName: 'LojaNova',
      token,
      integration: 'WHATSAPP-BAILEYS',
      qrcode: true,
    });
    expect(sim.callsOf('webhook/set')[0]!.body).toEqual({
      webhook: {
        enabled: true,
        url: 'https://conversa.example/api/webhooks/evo/8',
        headers: { [EVOLUTION_SECRET_HEADER]: 'evo-secret_0123456789' },
        byEvents: false,
        base64: false,
        events: [
          'QRCODE_UPDATED',
          'CONNECTION_UPDATE',
          'MESSAGES_UPSERT',
          'MESSAGES_UPDATE',
          'MESSAGES_DELETE',
          'MESSAGES_EDITED',
          'CONTACTS_UPSERT',
        ],
      },
    });
    // Started again while waiting: connect answers a fresh QR code.
    expect(await adapter.start(novo, 'https://x.test/w')).toMatchObject({
      status: 'qrcode',
      qrcode: '2@sim-qr-LojaNova-2',
    });
    // Logged in: CONNECTED with the account's number.
    sim.open('LojaNova', '5511900000001@s.whatsapp.net');
    expect(await adapter.start(novo, 'https://x.test/w')).toMatchObject({
      status: 'CONNECTED',
      number: '5511900000001',
    });
    await adapter.stop(novo);
    expect(sim.instances.get('LojaNova')!.state).toBe('close');
    await adapter.stop(novo); // already logged out (Evolution answers 400): not an error
  });

  it('classifies failures: a bad key is permanent, outages are retried, and the key never shows', async () => {
    const wrongKey = { ...channel, tokenAPI: 'wrong-key' };
    await expect(adapter.start(wrongKey, 'https://x.test')).rejects.toMatchObject({ permanent: true, status: 401 });
    sim.failNext('message/sendText', 500, 'Internal');
    await expect(
      adapter.send(channel, { to: '1', body: 'oi', mediaType: 'chat', media: null, replyToProviderMessageId: null }),
    ).rejects.toMatchObject({ permanent: false, status: 500 });
    const offline = { ...channel, remotePath: 'http://127.0.0.1:9' };
    const error = await adapter
      .send(offline, { to: '1', body: 'oi', mediaType: 'chat', media: null, replyToProviderMessageId: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ permanent: false });
    expect(String((error as Error).message)).not.toContain(sim.apiKey);
  });

  it('refuses a channel without URL, key or a valid instance name without calling Evolution', async () => {
    for (const broken of [
      { remotePath: null },
      { remotePath: 'file:///etc/passwd' },
      { tokenAPI: null },
      { wabaId: '../instance/delete' },
    ]) {
      await expect(
        adapter.start({ ...channel, ...broken, webhookSecret: 's' }, 'https://x.test'),
      ).rejects.toMatchObject({ permanent: true });
    }
    expect(sim.calls).toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeWhatsAppNumber } from '../whatsapp-number.js';
import { FakeWwebjsClient, rawIncoming, rawKey, type RawMessage } from './wwebjs.fake-client.js';
import {
  lidsOfMessage,
  normalizeOwnNumber,
  parseAck,
  parseBattery,
  parseContactChanged,
  parseEdit,
  parseLoading,
  parseMessage,
  parseReaction,
  parseRevoke,
  parseSerializedId,
  personParty,
  type ParseContext,
} from './wwebjs.parse.js';

const client = new FakeWwebjsClient({});
/** The library's own Message built from a raw WhatsApp Web model. */
const message = (raw: RawMessage) => client.build(raw);
const CUSTOMER = '5531988887777@c.us';
const NOW = 1_800_000_000_000;

describe('wwebjs parse: messages of every type', () => {
  it('text from a person: number, push name, seconds -> ms', () => {
    const raw = rawIncoming({ from: CUSTOMER, body: 'Olá', notifyName: 'Maria', t: 1_750_000_000 });
    const [event] = parseMessage(message(raw));
    expect(event).toEqual({
      kind: 'message',
      providerMessageId: raw.id.id,
      party: { chatId: '5531988887777', isGroup: false, name: 'Maria', number: '5531988887777', idField: 'number' },
      fromMe: false,
      timestamp: 1_750_000_000_000,
      mediaType: 'chat',
      body: 'Olá',
      media: null,
      isSticker: false,
      meta: null,
      quotedProviderMessageId: null,
    });
  });

  it('an 8-digit Brazilian mobile is stored as WhatsApp gave it (12 digits: replies must reach that JID)', () => {
    const [event] = parseMessage(message(rawIncoming({ from: '553188887777@c.us', body: 'x' })));
    expect(event).toMatchObject({ party: { chatId: '553188887777', number: '553188887777' } });
    for (const digits of ['553188887777', '5531988887777', '553133334444', '14155550100', '5511987654321']) {
      const party = personParty(`${digits}@c.us`, null, { pnForLid: () => null, groupName: () => null });
      expect(party.number).toBe(digits);
      expect(party.number).toBe(normalizeWhatsAppNumber(digits));
    }
  });

  const mediaCases: [string, Partial<RawMessage>, string, string][] = [
    ['image', { mimetype: 'image/jpeg', caption: 'foto' }, 'image', 'foto'],
    ['video', { mimetype: 'video/mp4', caption: 'vídeo' }, 'video', 'vídeo'],
    ['audio', { mimetype: 'audio/mpeg' }, 'audio', ''],
    ['ptt', { mimetype: 'audio/ogg; codecs=opus' }, 'ptt', ''],
    ['document', { mimetype: 'application/pdf', filename: 'nota.pdf', size: 2048 }, 'application', 'nota.pdf'],
    ['sticker', { mimetype: 'image/webp' }, 'sticker', ''],
  ];
  it.each(mediaCases)(
    '%s: media ref is the serialized id, mime and name from the model',
    (type, fields, mediaType, body) => {
      const raw = rawIncoming({ from: CUSTOMER, type, directPath: '/v/t62.7118-24/abc', mediaKey: 'k', ...fields });
      const [event] = parseMessage(message(raw));
      expect(event).toMatchObject({
        kind: 'message',
        mediaType,
        body,
        isSticker: type === 'sticker',
        media: {
          ref: raw.id._serialized,
          mime: fields.mimetype,
          name: fields.filename ?? null,
          size: fields.size ?? null,
        },
      });
    },
  );

  it('a media message whose file is gone (no directPath) keeps its text and no media', () => {
    const [event] = parseMessage(message(rawIncoming({ from: CUSTOMER, type: 'image', body: 'x' })));
    expect(event).toMatchObject({ mediaType: 'image', media: null });
  });

  it('location: coordinates and the place name as meta', () => {
    const raw = rawIncoming({
      from: CUSTOMER,
      type: 'location',
      lat: -19.92,
      lng: -43.94,
      loc: 'Praça da Liberdade\nBelo Horizonte',
    });
    const [event] = parseMessage(message(raw));
    expect(event).toMatchObject({ mediaType: 'location', body: 'Praça da Liberdade, Belo Horizonte' });
    expect(JSON.parse((event as { meta: string }).meta)).toEqual({
      latitude: -19.92,
      longitude: -43.94,
      name: 'Praça da Liberdade, Belo Horizonte',
    });
  });

  it('vcard and multi_vcard: names as body, the cards as meta', () => {
    const card = (name: string) => `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL;type=CELL:+55 31 98888-7777\nEND:VCARD`;
    const [one] = parseMessage(message(rawIncoming({ from: CUSTOMER, type: 'vcard', body: card('João') })));
    expect(one).toMatchObject({ mediaType: 'vcard', body: 'João', meta: card('João') });
    const list = [card('Ana'), card('Bia')].map((vcard, i) => ({ displayName: `n${i}`, vcard }));
    const [many] = parseMessage(message(rawIncoming({ from: CUSTOMER, type: 'multi_vcard', vcardList: list })));
    expect(many).toMatchObject({ mediaType: 'vcard', body: 'Ana, Bia', meta: `${card('Ana')}\n${card('Bia')}` });
  });

  it('a quoted reply names the quoted stanza id', () => {
    const raw = rawIncoming({
      from: CUSTOMER,
      body: 'sim',
      quotedMsg: { body: 'pode?' },
      quotedStanzaID: '3EB0QUOTED',
    });
    expect(parseMessage(message(raw))[0]).toMatchObject({ quotedProviderMessageId: '3EB0QUOTED' });
  });

  it('a group message: the group is the chat, the author the participant with the push name', () => {
    const group = '120363025555555555@g.us';
    const raw = rawIncoming({ from: group, author: '553188887777@c.us', notifyName: 'Zé', body: 'bom dia' });
    const ctx: ParseContext = { pnForLid: () => null, groupName: (jid) => (jid === group ? 'Vendas' : null) };
    expect(parseMessage(message(raw), ctx)[0]).toMatchObject({
      party: {
        chatId: group,
        isGroup: true,
        name: 'Vendas',
        number: null,
        participant: { id: '553188887777', name: 'Zé', number: '553188887777', idField: 'number' },
      },
    });
  });

  it('written on the phone (fromMe): the chat is `to`, no push name taken as the customer name', () => {
    const raw: RawMessage = {
      id: rawKey(true, CUSTOMER, '3EB0PHONE'),
      type: 'chat',
      t: 1_750_000_000,
      from: '5511900000000@c.us',
      to: CUSTOMER,
      notifyName: 'Atendente',
      body: 'enviado do celular',
    };
    expect(parseMessage(message(raw))[0]).toMatchObject({
      fromMe: true,
      party: { chatId: '5531988887777', name: '5531988887777' },
    });
  });

  it('a LID chat resolved to the phone when the library tells, else kept as the LID', () => {
    const raw = rawIncoming({ from: '123456789012345@lid', body: 'oi', notifyName: 'Lia' });
    expect(lidsOfMessage(message(raw))).toEqual(['123456789012345@lid']);
    const known: ParseContext = {
      pnForLid: (lid) => (lid === '123456789012345@lid' ? CUSTOMER : null),
      groupName: () => null,
    };
    expect(parseMessage(message(raw), known)[0]).toMatchObject({
      party: { chatId: '5531988887777', number: '5531988887777' },
    });
    expect(parseMessage(message(raw))[0]).toMatchObject({
      party: { chatId: '123456789012345@lid', number: null, name: 'Lia' },
    });
  });

  it('status updates, broadcasts, newsletters, revoked and notification types are not messages', () => {
    expect(parseMessage(message(rawIncoming({ from: 'status@broadcast', author: CUSTOMER, body: 'story' })))).toEqual(
      [],
    );
    expect(parseMessage(message(rawIncoming({ from: CUSTOMER, body: 'x', isStatusV3: true })))).toEqual([]);
    expect(parseMessage(message(rawIncoming({ from: '120363@newsletter', body: 'news' })))).toEqual([]);
    for (const type of ['revoked', 'e2e_notification', 'gp2', 'ciphertext', 'call_log', 'protocol']) {
      expect(parseMessage(message(rawIncoming({ from: CUSTOMER, type, body: 'x' })))).toEqual([]);
    }
    expect(parseMessage({ not: 'a message' })).toEqual([]);
  });

  it('button and list answers are text', () => {
    const [event] = parseMessage(message(rawIncoming({ from: CUSTOMER, type: 'list_response', body: 'Opção 2' })));
    expect(event).toMatchObject({ mediaType: 'chat', body: 'Opção 2' });
  });
});

describe('wwebjs parse: acks, edits, deletes, reactions, contacts, session', () => {
  const sent: RawMessage = {
    id: rawKey(true, CUSTOMER, '3EB0SENT'),
    type: 'chat',
    t: 1,
    from: 'me@c.us',
    to: CUSTOMER,
    body: 'a',
  };

  it('message_ack: server, device, read, played; pending and error none', () => {
    expect(parseAck(message(sent), 1, NOW)).toEqual([
      { kind: 'ack', providerMessageId: '3EB0SENT', ack: 1, timestamp: NOW },
    ]);
    expect(parseAck(message(sent), 3, NOW)[0]).toMatchObject({ ack: 3 });
    expect(parseAck(message(sent), 4, NOW)[0]).toMatchObject({ ack: 4 });
    expect(parseAck(message(sent), 0, NOW)).toEqual([]);
    expect(parseAck(message(sent), -1, NOW)).toEqual([]);
  });

  it('message_edit: the new body, the edit time', () => {
    const raw = rawIncoming({ from: CUSTOMER, body: 'novo', latestEditSenderTimestampMs: 1_750_000_123_000 });
    expect(parseEdit(message(raw), 'novo', undefined, NOW)).toEqual([
      expect.objectContaining({
        kind: 'edit',
        providerMessageId: raw.id.id,
        body: 'novo',
        timestamp: 1_750_000_123_000,
      }),
    ]);
  });

  it('message_revoke_everyone: the original id from protocolMessageKey, not the revoked copy', () => {
    const original = rawIncoming({ from: CUSTOMER, body: 'apagar' });
    const revoked = message({
      ...original,
      id: rawKey(false, CUSTOMER, '3EB0NEWID'),
      type: 'revoked',
      protocolMessageKey: original.id,
    });
    expect(parseRevoke(revoked, null, NOW)).toEqual([
      { kind: 'delete', providerMessageId: original.id.id, timestamp: 1_750_000_000_000 },
    ]);
    // Without the key (older WhatsApp Web): the earlier copy, else the message itself.
    const plain = message({ ...original, type: 'revoked' });
    expect(parseRevoke(plain, null, NOW)[0]).toMatchObject({ providerMessageId: original.id.id });
  });

  it('message_reaction: the reacted message, the emoji (empty = removed), key objects or serialized strings', () => {
    const target = rawKey(true, CUSTOMER, '3EB0TARGET');
    const events: unknown[] = [];
    const fake = new FakeWwebjsClient({});
    fake.on('message_reaction', (reaction) => events.push(...parseReaction(reaction, undefined, NOW)));
    fake.react(target, CUSTOMER, '👍');
    fake.react(target, CUSTOMER, '');
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'reaction',
        providerMessageId: '3EB0TARGET',
        reaction: '👍',
        timestamp: 1_750_000_600_000,
      }),
      expect.objectContaining({ reaction: '' }),
    ]);
    const stringKeys = parseReaction({
      id: 'false_x@c.us_R1',
      msgId: target._serialized,
      senderId: CUSTOMER,
      reaction: '❤️',
      timestamp: 2,
    });
    expect(stringKeys[0]).toMatchObject({
      providerMessageId: '3EB0TARGET',
      reaction: '❤️',
      party: { chatId: '5531988887777' },
    });
  });

  it('a reaction in a group names the member who reacted', () => {
    const group = '120363025555555555@g.us';
    const [event] = parseReaction({
      id: rawKey(false, group, 'R2', CUSTOMER),
      msgId: rawKey(true, group, '3EB0G'),
      senderId: CUSTOMER,
      reaction: '😂',
      timestamp: 3,
    });
    expect(event).toMatchObject({ party: { chatId: group, isGroup: true, participant: { id: '5531988887777' } } });
  });

  it('contact_changed: the new number as a contact without a name', () => {
    expect(parseContactChanged('553188887777@c.us', '553199990000@c.us')).toEqual([
      {
        kind: 'contact',
        party: { chatId: '553199990000', isGroup: false, name: '', number: '553199990000', idField: 'number' },
      },
    ]);
    expect(parseContactChanged('x@c.us', '1203@g.us')).toEqual([]);
  });

  it('change_battery and loading_screen', () => {
    expect(parseBattery({ battery: 42, plugged: true })).toEqual([{ kind: 'battery', battery: 42, plugged: true }]);
    expect(parseBattery({ plugged: true })).toEqual([]);
    expect(parseLoading('55')).toEqual([{ kind: 'session-sync', percent: 55 }]);
    expect(parseLoading(100)).toEqual([{ kind: 'session-sync', percent: 100 }]);
    expect(parseLoading(140)).toEqual([{ kind: 'session-sync', percent: 100 }]);
    expect(parseLoading('WhatsApp')).toEqual([]);
  });

  it('ids: serialized ids split, own number only from a phone id', () => {
    expect(parseSerializedId('false_120363@g.us_3EB0AB_5531988887777@c.us')).toEqual({
      fromMe: false,
      remote: '120363@g.us',
      id: '3EB0AB',
      participant: '5531988887777@c.us',
      serialized: 'false_120363@g.us_3EB0AB_5531988887777@c.us',
    });
    expect(parseSerializedId('3EB0AB')).toBeNull();
    expect(normalizeOwnNumber({ user: '553188887777', server: 'c.us' })).toBe('553188887777');
    expect(normalizeOwnNumber({ user: '123', server: 'lid' })).toBeNull();
  });
});

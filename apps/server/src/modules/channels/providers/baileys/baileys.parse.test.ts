/**
 * Baileys events -> InboundEvents: every message kind, wrappers, replies, reactions, edits, deletes, receipts,
 * contacts, groups, LID addressing, the Brazilian ninth digit, and what is ignored.
 */
import { describe, expect, it } from 'vitest';
import { proto } from 'baileys';
import type { InboundEvent } from '../../channels.adapter.js';
import {
  ackOfStatus,
  emptyContext,
  lidPairsOf,
  mediaRefSchema,
  normalizeWhatsAppNumber,
  parseContacts,
  parseGroups,
  parseMessage,
  parseMessageUpdates,
  parseReactions,
  parseReceipts,
  whatsAppNumberForms,
  type ParseContext,
} from './baileys.parse.js';

const CUSTOMER = '5511988887777@s.whatsapp.net';
const key = (id: string, extra: Record<string, unknown> = {}) => ({ remoteJid: CUSTOMER, fromMe: false, id, ...extra });
const wa = (id: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  key: key(id),
  message,
  messageTimestamp: 1_763_700_000,
  pushName: 'Maria',
  ...extra,
});
const one = (raw: unknown, ctx?: ParseContext) => {
  const events = parseMessage(raw, ctx);
  expect(events).toHaveLength(1);
  return events[0]!;
};
const msg = (event: InboundEvent) => {
  if (event.kind !== 'message') throw new Error(`expected a message, got ${event.kind}`);
  return event;
};
const mediaKey = Buffer.from('k'.repeat(32));
const mediaFields = {
  url: 'https://mmg.whatsapp.net/v/t62/x.enc',
  directPath: '/v/t62/x.enc',
  mediaKey,
  fileLength: 1234,
};

describe('message kinds', () => {
  it('text: conversation and extended text, with party, timestamp and no quote', () => {
    expect(one(wa('T1', { conversation: 'Olá' }))).toEqual({
      kind: 'message',
      providerMessageId: 'T1',
      party: { chatId: '5511988887777', isGroup: false, name: 'Maria', number: '5511988887777', idField: 'number' },
      fromMe: false,
      timestamp: 1_763_700_000_000,
      mediaType: 'chat',
      body: 'Olá',
      media: null,
      isSticker: false,
      meta: null,
      quotedProviderMessageId: null,
    });
    expect(msg(one(wa('T2', { extendedTextMessage: { text: 'veja https://x.y' } })))).toMatchObject({
      mediaType: 'chat',
      body: 'veja https://x.y',
    });
  });

  it('media: image, video, audio, voice note, document and sticker carry a download ref', () => {
    const cases: [string, Record<string, unknown>, string, string, string | null][] = [
      ['imageMessage', { caption: 'foto', mimetype: 'image/jpeg' }, 'image', 'foto', 'image'],
      ['videoMessage', { caption: 'vídeo', mimetype: 'video/mp4' }, 'video', 'vídeo', 'video'],
      ['audioMessage', { mimetype: 'audio/mpeg' }, 'audio', '', 'audio'],
      ['audioMessage', { mimetype: 'audio/ogg; codecs=opus', ptt: true }, 'ptt', '', 'audio'],
      [
        'documentMessage',
        { mimetype: 'application/pdf', fileName: 'boleto.pdf' },
        'application',
        'boleto.pdf',
        'document',
      ],
      ['stickerMessage', { mimetype: 'image/webp' }, 'sticker', '', 'sticker'],
    ];
    for (const [field, fields, mediaType, body, refType] of cases) {
      const event = msg(one(wa(`M-${mediaType}`, { [field]: { ...mediaFields, ...fields } })));
      expect(event).toMatchObject({ mediaType, body, isSticker: mediaType === 'sticker' });
      expect(event.media).toMatchObject({ mime: fields.mimetype, size: 1234 });
      const ref = mediaRefSchema.parse(JSON.parse(event.media!.ref));
      expect(ref).toMatchObject({ type: refType, url: mediaFields.url, directPath: mediaFields.directPath });
      expect(Buffer.from(ref.mediaKey, 'base64').equals(mediaKey)).toBe(true);
    }
  });

  it('locations and contacts (vCard in meta; several cards joined)', () => {
    expect(
      msg(
        one(
          wa('LOC', {
            locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Loja', address: 'Av. Paulista' },
          }),
        ),
      ),
    ).toMatchObject({
      mediaType: 'location',
      body: 'Loja, Av. Paulista',
      meta: JSON.stringify({ latitude: -23.5, longitude: -46.6, name: 'Loja, Av. Paulista' }),
    });
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João Silva\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD';
    expect(msg(one(wa('VC', { contactMessage: { displayName: 'João Silva', vcard } })))).toMatchObject({
      mediaType: 'vcard',
      body: 'João Silva',
      meta: vcard,
    });
    const other = vcard.replace('João Silva', 'Ana');
    expect(
      msg(one(wa('VCS', { contactsArrayMessage: { contacts: [{ vcard }, { displayName: 'Ana', vcard: other }] } }))),
    ).toMatchObject({ mediaType: 'vcard', body: 'João Silva, Ana', meta: `${vcard}\n${other}` });
  });

  it('replies: contextInfo.stanzaId is the quoted message', () => {
    const reply = wa('R1', {
      extendedTextMessage: { text: 'sim', contextInfo: { stanzaId: 'ORIG-1', participant: CUSTOMER } },
    });
    expect(msg(one(reply)).quotedProviderMessageId).toBe('ORIG-1');
    const imageReply = wa('R2', { imageMessage: { ...mediaFields, contextInfo: { stanzaId: 'ORIG-2' } } });
    expect(msg(one(imageReply)).quotedProviderMessageId).toBe('ORIG-2');
  });

  it('unwraps ephemeral, view-once and document-with-caption wrappers', () => {
    expect(msg(one(wa('E1', { ephemeralMessage: { message: { conversation: 'some' } } }))).body).toBe('some');
    const viewOnce = wa('V1', {
      viewOnceMessageV2: { message: { imageMessage: { ...mediaFields, caption: 'uma vez' } } },
    });
    expect(msg(one(viewOnce))).toMatchObject({ mediaType: 'image', body: 'uma vez' });
    const nested = wa('V2', {
      ephemeralMessage: { message: { viewOnceMessage: { message: { conversation: 'dentro' } } } },
    });
    expect(msg(one(nested)).body).toBe('dentro');
    const doc = wa('D1', {
      documentWithCaptionMessage: {
        message: { documentMessage: { ...mediaFields, fileName: 'a.pdf', caption: 'legenda' } },
      },
    });
    expect(msg(one(doc))).toMatchObject({ mediaType: 'application', body: 'legenda' });
  });

  it('fromMe messages written on the phone keep the chat, not the phone user name', () => {
    const event = msg(
      one({ ...wa('F1', { conversation: 'do celular' }), key: key('F1', { fromMe: true }), pushName: 'Eu' }),
    );
    expect(event).toMatchObject({ fromMe: true, party: { chatId: '5511988887777', name: '5511988887777' } });
  });

  it('group messages: chat is the group, the participant carries the pushName', () => {
    const group = {
      key: {
        remoteJid: '120363025246125486@g.us',
        fromMe: false,
        id: 'G1',
        participant: '5511966665555@s.whatsapp.net',
      },
      message: { conversation: 'bom dia' },
      messageTimestamp: 1_763_700_000,
      pushName: 'Pedro',
    };
    const ctx: ParseContext = {
      ...emptyContext,
      groupName: (jid) => (jid.startsWith('120363') ? 'Clientes VIP' : null),
    };
    expect(msg(one(group, ctx)).party).toEqual({
      chatId: '120363025246125486@g.us',
      isGroup: true,
      name: 'Clientes VIP',
      number: null,
      idField: 'number',
      participant: { id: '5511966665555', name: 'Pedro', number: '5511966665555', idField: 'number' },
    });
  });

  it('reads the library proto objects (Long timestamps, Uint8Array keys)', () => {
    const info = proto.WebMessageInfo.fromObject({
      key: key('P1'),
      message: { imageMessage: { ...mediaFields, caption: 'proto' } },
      messageTimestamp: 1_763_700_000,
      pushName: 'Maria',
    });
    const event = msg(one(info));
    expect(event).toMatchObject({
      providerMessageId: 'P1',
      mediaType: 'image',
      body: 'proto',
      timestamp: 1_763_700_000_000,
    });
    expect(JSON.parse(event.media!.ref).mediaKey).toBe(mediaKey.toString('base64'));
  });
});

describe('reactions, edits and deletes', () => {
  it('reactions from reactionMessage and from messages.reaction (empty text = removed)', () => {
    expect(
      one(wa('RX', { reactionMessage: { key: key('ORIG'), text: '❤️', senderTimestampMs: 1_763_700_000_500 } })),
    ).toEqual({
      kind: 'reaction',
      providerMessageId: 'ORIG',
      party: { chatId: '5511988887777', isGroup: false, name: 'Maria', number: '5511988887777', idField: 'number' },
      reaction: '❤️',
      timestamp: 1_763_700_000_500,
    });
    const [removed] = parseReactions([{ key: key('ORIG', { fromMe: true }), reaction: { key: key('RX2'), text: '' } }]);
    expect(removed).toMatchObject({ kind: 'reaction', providerMessageId: 'ORIG', reaction: '' });
  });

  it('edits: protocol MESSAGE_EDIT, the editedMessage wrapper and messages.update', () => {
    const edit = { protocolMessage: { type: 14, key: key('ORIG'), editedMessage: { conversation: 'corrigido' } } };
    expect(one(wa('ED1', edit))).toMatchObject({ kind: 'edit', providerMessageId: 'ORIG', body: 'corrigido' });
    expect(one(wa('ED2', { editedMessage: { message: edit } }))).toMatchObject({ kind: 'edit', body: 'corrigido' });
    const updates = parseMessageUpdates([
      { key: key('ORIG'), update: { message: { editedMessage: { message: { conversation: 'de novo' } } } } },
    ]);
    expect(updates).toEqual([expect.objectContaining({ kind: 'edit', providerMessageId: 'ORIG', body: 'de novo' })]);
  });

  it('deletes: protocol REVOKE and the messages.update revoke stub', () => {
    expect(one(wa('DEL', { protocolMessage: { type: 0, key: key('ORIG') } }))).toEqual({
      kind: 'delete',
      providerMessageId: 'ORIG',
      timestamp: 1_763_700_000_000,
    });
    expect(
      parseMessageUpdates([{ key: key('ORIG'), update: { message: null, messageStubType: 1 } }], emptyContext, 5),
    ).toEqual([{ kind: 'delete', providerMessageId: 'ORIG', timestamp: 5 }]);
  });
});

describe('acks', () => {
  it('message status -> ack (server 1, delivered 2, read 3, played 4); pending and error none', () => {
    expect([0, 1, 2, 3, 4, 5].map(ackOfStatus)).toEqual([null, null, 1, 2, 3, 4]);
    const events = parseMessageUpdates(
      [2, 3, 4, 5, 1].map((status, i) => ({ key: key(`S${i}`), update: { status } })),
      emptyContext,
      9,
    );
    expect(events.map((e) => (e.kind === 'ack' ? e.ack : null))).toEqual([1, 2, 3, 4]);
  });

  it('receipts: played over read over delivered', () => {
    const receipts = parseReceipts([
      { key: key('A'), receipt: { userJid: CUSTOMER, receiptTimestamp: 10 } },
      { key: key('B'), receipt: { userJid: CUSTOMER, receiptTimestamp: 10, readTimestamp: 11 } },
      { key: key('C'), receipt: { userJid: CUSTOMER, readTimestamp: 11, playedTimestamp: 12 } },
    ]);
    expect(receipts).toEqual([
      { kind: 'ack', providerMessageId: 'A', ack: 2, timestamp: 10_000 },
      { kind: 'ack', providerMessageId: 'B', ack: 3, timestamp: 11_000 },
      { kind: 'ack', providerMessageId: 'C', ack: 4, timestamp: 12_000 },
    ]);
  });
});

describe('contacts and groups', () => {
  it('contacts.upsert/update -> contact events (saved name first, never the CDN picture), LIDs resolved or skipped', () => {
    const events = parseContacts([
      {
        id: '5511977776666@s.whatsapp.net',
        name: 'João (salvo)',
        notify: 'João',
        imgUrl: 'https://pps.whatsapp.net/j.jpg',
      },
      { id: '99887766@lid', phoneNumber: '5511955554444@s.whatsapp.net', notify: 'Lia' },
      { id: '11223344@lid', notify: 'Sem número' },
      { id: '120363025246125486@g.us', name: 'grupo' },
    ]);
    expect(events).toEqual([
      {
        kind: 'contact',
        party: {
          chatId: '5511977776666',
          isGroup: false,
          name: 'João (salvo)',
          number: '5511977776666',
          idField: 'number',
        },
      },
      {
        kind: 'contact',
        party: { chatId: '5511955554444', isGroup: false, name: 'Lia', number: '5511955554444', idField: 'number' },
      },
    ]);
  });

  it('groups.upsert -> a group contact named by its subject', () => {
    expect(
      parseGroups([
        { id: '120363025246125486@g.us', subject: 'Clientes VIP', participants: [] },
        { id: 'x@s.whatsapp.net' },
      ]),
    ).toEqual([
      {
        kind: 'contact',
        party: {
          chatId: '120363025246125486@g.us',
          isGroup: true,
          name: 'Clientes VIP',
          number: null,
          idField: 'number',
        },
      },
    ]);
  });
});

describe('LID addressing', () => {
  const lidChat = (id: string, extra: Record<string, unknown>) => ({
    key: { remoteJid: '77665544332211@lid', fromMe: false, id, ...extra },
    message: { conversation: 'oi' },
    pushName: 'Rui',
  });

  it('resolves a LID chat by remoteJidAlt, senderPn or the LID map: the same contact as the phone JID', () => {
    const byPhone = msg(one({ key: key('PN'), message: { conversation: 'oi' }, pushName: 'Rui' })).party.chatId;
    expect(msg(one(lidChat('A1', { remoteJidAlt: CUSTOMER }))).party.chatId).toBe(byPhone);
    expect(msg(one(lidChat('A2', { senderPn: CUSTOMER }))).party.chatId).toBe(byPhone);
    const ctx: ParseContext = { ...emptyContext, pnForLid: (lid) => (lid === '77665544332211@lid' ? CUSTOMER : null) };
    expect(msg(one(lidChat('A3', {}), ctx)).party).toMatchObject({
      chatId: byPhone,
      number: '5511988887777',
      name: 'Rui',
    });
  });

  it('a group participant by LID resolves through participantAlt; an unknown LID stays a LID without a number', () => {
    const group = {
      key: {
        remoteJid: '120363025246125486@g.us',
        id: 'G2',
        participant: '12345678901234@lid',
        participantAlt: '5511966665555@s.whatsapp.net',
      },
      message: { conversation: 'x' },
      pushName: 'Pedro',
    };
    expect(msg(one(group)).party.participant).toMatchObject({ id: '5511966665555', number: '5511966665555' });
    expect(msg(one(lidChat('U1', {}))).party).toMatchObject({
      chatId: '77665544332211@lid',
      number: null,
      name: 'Rui',
    });
  });

  it('collects LID pairs from keys and contacts for the driver map', () => {
    expect(
      lidPairsOf(
        [lidChat('P', { remoteJidAlt: '5511988887777:3@s.whatsapp.net' })],
        [{ id: '5511900001111@s.whatsapp.net', lid: '555@lid' }],
      ),
    ).toEqual([
      ['77665544332211@lid', '5511988887777@s.whatsapp.net'],
      ['555@lid', '5511900001111@s.whatsapp.net'],
    ]);
  });
});

describe('Brazilian ninth digit', () => {
  it('keeps the digits WhatsApp gave (a 12-digit JID stays 12); the senders try the other form too', () => {
    expect(normalizeWhatsAppNumber('556199998888')).toBe('556199998888');
    expect(normalizeWhatsAppNumber('5511988887777')).toBe('5511988887777');
    expect(normalizeWhatsAppNumber('551133334444')).toBe('551133334444'); // landline (starts with 3)
    expect(normalizeWhatsAppNumber('14155550123')).toBe('14155550123');
    expect(whatsAppNumberForms('556199998888')).toEqual(['556199998888', '5561999998888']);
    expect(whatsAppNumberForms('5561999998888')).toEqual(['5561999998888', '556199998888']);
    expect(whatsAppNumberForms('551133334444')).toEqual(['551133334444']);
  });

  it('a message from the 8-digit JID keeps 12 digits, one from the 9-digit JID 13 (ingestion joins the two forms)', () => {
    const old = msg(
      one({ ...wa('N1', { conversation: 'a' }), key: { remoteJid: '556199998888@s.whatsapp.net', id: 'N1' } }),
    );
    const fresh = msg(
      one({ ...wa('N2', { conversation: 'b' }), key: { remoteJid: '5561999998888@s.whatsapp.net', id: 'N2' } }),
    );
    // Replies must reach the JID WhatsApp knows; contacts.inbound.ts finds one contact by either form.
    expect(old.party.chatId).toBe('556199998888');
    expect(fresh.party.chatId).toBe('5561999998888');
  });
});

describe('ignored', () => {
  it('status broadcasts, newsletters, protocol noise, stubs without content, malformed input', () => {
    expect(
      parseMessage({ ...wa('S', { conversation: 'status' }), key: key('S', { remoteJid: 'status@broadcast' }) }),
    ).toEqual([]);
    expect(
      parseMessage({ ...wa('N', { conversation: 'n' }), key: key('N', { remoteJid: '1203630000@newsletter' }) }),
    ).toEqual([]);
    expect(parseMessage(wa('H', { protocolMessage: { type: 5, historySyncNotification: {} } }))).toEqual([]);
    expect(parseMessage(wa('K', { senderKeyDistributionMessage: { groupId: 'x' } }))).toEqual([]);
    expect(parseMessage({ key: key('STUB'), messageStubType: 27, messageTimestamp: 1 })).toEqual([]);
    expect(parseMessage({ nope: true })).toEqual([]);
    expect(parseMessage(wa('BAD', { imageMessage: { caption: 5 } }))).toEqual([]);
    expect(
      parseReceipts([{ key: key('X', { remoteJid: 'status@broadcast' }), receipt: { readTimestamp: 1 } }]),
    ).toEqual([]);
  });
});

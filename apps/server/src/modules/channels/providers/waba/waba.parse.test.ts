/**
 * Cloud API webhook payloads (fixtures/, in Meta's documented shapes) to InboundEvents: every inbound type, replies,
 * edits, reactions, statuses (out of order, pricing, failures), business-scoped user ids, and malformed or hostile
 * bodies (ZodError -> the intake's 400).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { InboundEvent } from '../../channels.adapter.js';
import { parseWabaWebhook, WABA_BSUID_ID_FIELD } from './waba.parse.js';

const PHONE = '1100001';
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
const parse = (name: string) => parseWabaWebhook(fixture(name), PHONE);
const only = (name: string) => {
  const events = parse(name);
  expect(events).toHaveLength(1);
  return events[0]!;
};
const maria = {
  chatId: '5511987654321',
  isGroup: false,
  name: 'Maria Souza',
  number: '5511987654321',
  idField: 'number',
};

describe('waba webhook parse: messages', () => {
  it('text: the sender keyed by number with the profile name, epoch ms', () => {
    expect(only('text')).toEqual({
      kind: 'message',
      providerMessageId: 'wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFjNFQjAxMDAwMDAwMDAwMDAwMDAwAA==',
      party: maria,
      fromMe: false,
      timestamp: 1_763_700_000_000,
      mediaType: 'chat',
      body: 'Olá, preciso de ajuda com meu pedido',
      media: null,
      meta: null,
      isSticker: false,
      quotedProviderMessageId: null,
    });
  });

  it.each([
    ['image', 'image', 'a nota fiscal', { ref: '3300000001', mime: 'image/jpeg', name: null, size: null }],
    ['voice', 'ptt', '', { ref: '3300000002', mime: 'audio/ogg', name: null, size: null }],
    ['audio', 'audio', '', { ref: '3300000003', mime: 'audio/mpeg', name: null, size: null }],
    ['video', 'video', 'olha', { ref: '3300000004', mime: 'video/mp4', name: null, size: null }],
    [
      'document',
      'application',
      'segue',
      { ref: '3300000005', mime: 'application/pdf', name: 'boleto.pdf', size: null },
    ],
    ['sticker', 'sticker', '', { ref: '3300000006', mime: 'image/webp', name: null, size: null }],
  ])('%s: media by its Graph media id', (name, mediaType, body, media) => {
    expect(only(name)).toMatchObject({ kind: 'message', mediaType, body, media, isSticker: name === 'sticker' });
  });

  it('location: meta JSON with the place name and address', () => {
    const event = only('location') as Extract<InboundEvent, { kind: 'message' }>;
    expect(event).toMatchObject({ mediaType: 'location', body: 'Loja Centro, Praça da Sé, São Paulo' });
    expect(JSON.parse(event.meta!)).toEqual({
      latitude: -23.5505,
      longitude: -46.6333,
      name: 'Loja Centro, Praça da Sé, São Paulo',
    });
  });

  it('contacts: a vCard with the phone (waid), e-mail', () => {
    const event = only('contacts') as Extract<InboundEvent, { kind: 'message' }>;
    expect(event).toMatchObject({ mediaType: 'vcard', body: 'João Lima' });
    expect(event.meta).toContain('FN:João Lima');
    expect(event.meta).toContain('TEL;waid=5511912345678:+55 11 91234-5678');
    expect(event.meta).toContain('EMAIL:joao@example.com');
  });

  it('interactive button and list replies and template quick replies: button_reply with the title', () => {
    expect(only('button-reply')).toMatchObject({
      mediaType: 'button_reply',
      body: 'Sim, confirmo',
      quotedProviderMessageId: 'wamid.ours1',
    });
    expect(only('list-reply')).toMatchObject({ mediaType: 'button_reply', body: 'Segunda via' });
    expect(only('template-button')).toMatchObject({
      mediaType: 'button_reply',
      body: 'Parar promoções',
      quotedProviderMessageId: 'wamid.ours2',
    });
  });

  it('reply: context.id is the quoted message', () => {
    expect(only('reply')).toMatchObject({
      body: 'respondendo',
      quotedProviderMessageId: 'wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFjNFQjAxMDAwMDAwMDAwMDAwMDAwAA==',
    });
  });

  it('reaction: kind reaction on the reacted message; an empty emoji removes it', () => {
    expect(only('reaction')).toEqual({
      kind: 'reaction',
      providerMessageId: 'wamid.ours1',
      party: maria,
      reaction: '👍',
      timestamp: 1_763_700_000_000,
    });
    expect(only('reaction-removed')).toMatchObject({ kind: 'reaction', reaction: '' });
  });

  it('edit: the original message gets the new text', () => {
    expect(only('edit')).toEqual({
      kind: 'edit',
      providerMessageId: 'wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFjNFQjAxMDAwMDAwMDAwMDAwMDAwAA==',
      party: maria,
      body: 'Olá, preciso de ajuda com meu pedido 123',
      timestamp: 1_763_700_000_000,
    });
  });

  it('unsupported and unknown types are stored as unsupported, naming the type', () => {
    expect(only('unsupported')).toMatchObject({
      kind: 'message',
      mediaType: 'unsupported',
      body: '[unsupported] Message type unknown',
    });
    expect(only('unknown-type')).toMatchObject({ kind: 'message', mediaType: 'unsupported', body: '[order]' });
  });

  it('a user known only by a business-scoped user id is keyed by that id', () => {
    expect(only('bsuid')).toMatchObject({
      kind: 'message',
      body: 'sem número',
      party: { chatId: 'BR.1502576394655843', number: null, idField: WABA_BSUID_ID_FIELD, name: 'Anônima' },
    });
  });
});

describe('waba webhook parse: groups', () => {
  it('a message with group_id is the group chat, the sender its participant (not the one-to-one chat)', () => {
    expect(only('group-text')).toMatchObject({
      kind: 'message',
      providerMessageId: 'wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFkdST1VQMDAwMDAwMDAwMDAwMDAwMQA=',
      body: 'Bom dia, grupo',
      party: {
        chatId: 'Y2FwaV9ncm91cDoxMjAzNjMwMjA5ODc2NTQzMjE=',
        isGroup: true,
        number: null,
        idField: 'number',
        participant: { id: '5511987654321', name: 'Maria Souza', number: '5511987654321', idField: 'number' },
      },
    });
  });
});

describe('waba webhook parse: statuses', () => {
  it('keeps Meta order (ingestion only moves acks forward) with the pricing of the sent status', () => {
    expect(parse('statuses')).toEqual([
      { kind: 'ack', providerMessageId: 'wamid.out1', ack: 3, timestamp: 1_763_700_030_000 },
      {
        kind: 'ack',
        providerMessageId: 'wamid.out1',
        ack: 1,
        timestamp: 1_763_700_010_000,
        pricing: { category: 'service', conversationId: 'conv-1' },
      },
      { kind: 'ack', providerMessageId: 'wamid.out1', ack: 2, timestamp: 1_763_700_020_000 },
    ]);
  });

  it('failed: send-failed with "<code>: <title>"', () => {
    expect(parse('failed')).toEqual([
      {
        kind: 'send-failed',
        providerMessageId: 'wamid.out2',
        error: '131047: Re-engagement message',
        timestamp: 1_763_700_040_000,
      },
    ]);
  });
});

describe('waba webhook parse: what is left out or refused', () => {
  it('changes of another phone number and non-message fields yield nothing', () => {
    expect(parse('other-number')).toEqual([]);
    expect(parse('template-status-update')).toEqual([]);
    expect(parseWabaWebhook(fixture('text'), null)).toEqual([]);
  });

  it('refuses malformed bodies and wrong types with a ZodError', () => {
    const text = fixture('text');
    const bad: unknown[] = [
      null,
      'x',
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account' },
      { object: 'whatsapp_business_account', entry: 'x' },
    ];
    for (const body of bad) expect(() => parseWabaWebhook(body, PHONE)).toThrow(ZodError);
    const wrongTimestamp = structuredClone(text) as { entry: { changes: { value: { messages: object[] } }[] }[] };
    wrongTimestamp.entry[0]!.changes[0]!.value.messages[0] = {
      id: 'x',
      from: '5511',
      timestamp: 'yesterday',
      type: 'text',
    };
    expect(() => parseWabaWebhook(wrongTimestamp, PHONE)).toThrow(ZodError);
    const wrongBody = JSON.parse(JSON.stringify(text).replace('"body":"Olá', '"body":5,"x":"')) as unknown;
    expect(() => parseWabaWebhook(wrongBody, PHONE)).toThrow(ZodError);
  });

  it('refuses huge strings instead of storing them', () => {
    const huge = JSON.parse(JSON.stringify(fixture('text')).replace('Olá', 'x'.repeat(70_000))) as unknown;
    expect(() => parseWabaWebhook(huge, PHONE)).toThrow(ZodError);
    const hugeId = JSON.parse(JSON.stringify(fixture('text')).replace('wamid.', 'w'.repeat(300))) as unknown;
    expect(() => parseWabaWebhook(hugeId, PHONE)).toThrow(ZodError);
  });

  it('ignores prototype keys (no pollution, no extra fields)', () => {
    const raw = JSON.stringify(fixture('text')).replace(
      '"type":"text"',
      '"type":"text","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}',
    );
    const events = parseWabaWebhook(JSON.parse(raw), PHONE);
    expect(events).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(events[0]!)).not.toContain('__proto__');
  });

  it('a message with neither a phone nor a user id is dropped (nobody to answer)', () => {
    const body = fixture('text') as { entry: { changes: { value: { messages: Record<string, unknown>[] } }[] }[] };
    delete body.entry[0]!.changes[0]!.value.messages[0]!.from;
    expect(parseWabaWebhook(body, PHONE)).toEqual([]);
  });
});

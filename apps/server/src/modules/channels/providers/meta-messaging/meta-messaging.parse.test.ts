/** Messenger and Instagram webhooks: fixture payloads of every kind in, normalised events out. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { parseMetaMessagingWebhook } from './meta-messaging.parse.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

const PAGE = '1122334455';
const PSID = '7001002003004005';
const IG = '17841400000000001';
const IGSID = '5501002003004006';
const T = 1763700000000;

const messenger = (name: string) => parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, fixture(name));
const instagram = (name: string) => parseMetaMessagingWebhook('instagram', { wabaId: IG }, fixture(name));

const customer = { chatId: PSID, isGroup: false, name: PSID, number: null, idField: 'messengerId' };
const igCustomer = { chatId: IGSID, isGroup: false, name: IGSID, number: null, idField: 'instagramPK' };

describe('Messenger messages', () => {
  it('a text keyed by its mid, from the PSID (messengerId), with the message it replies to', () => {
    expect(messenger('messenger-text')).toEqual([
      {
        kind: 'message',
        providerMessageId: 'm_text_1',
        party: customer,
        fromMe: false,
        timestamp: T,
        mediaType: 'chat',
        media: null,
        body: 'Olá, meu pedido não chegou',
        meta: null,
        isSticker: false,
        quotedProviderMessageId: 'm_earlier_0',
      },
    ]);
  });

  it('attachments: one event per image (the first keeps the mid), video, audio, file, sticker and a shared link', () => {
    const events = messenger('messenger-attachments');
    expect(events.map((e) => (e.kind === 'message' ? [e.providerMessageId, e.mediaType] : e.kind))).toEqual([
      ['m_photos', 'image'],
      ['m_photos#1', 'image'],
      ['m_video', 'video'],
      ['m_audio', 'audio'],
      ['m_file', 'application'],
      ['m_sticker', 'sticker'],
      ['m_fallback', 'chat'],
    ]);
    expect(events[0]).toMatchObject({
      media: { ref: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1', mime: 'image/jpeg' },
      body: '',
    });
    expect(events[1]).toMatchObject({ media: { ref: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=2' } });
    expect(events[4]).toMatchObject({ media: { ref: 'https://cdn.fbsbx.com/v/nota.pdf', mime: null } });
    expect(events[5]).toMatchObject({ isSticker: true, media: { ref: 'https://scontent.xx.fbcdn.net/v/sticker.png' } });
    expect(events[6]).toMatchObject({
      media: null,
      body: 'olha isso https://example.com/produto\nProduto X\nhttps://example.com/produto',
      meta: JSON.stringify({ share: 'fallback', url: 'https://example.com/produto' }),
    });
  });

  it('a sticker sent as a `sticker` attachment and its `image` twin is one sticker under the mid', () => {
    const events = messenger('messenger-sticker-twin');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'message',
      providerMessageId: 'm_sticker_twin',
      mediaType: 'sticker',
      isSticker: true,
      body: '',
      media: { ref: 'https://scontent.xx.fbcdn.net/v/t39.1997-6/like.png', mime: 'image/png' },
    });
    // The sticker attachment without a link (after Meta's transition it may come alone): the twin's link is kept.
    const body = fixture('messenger-sticker-twin');
    const message = (body.entry as { messaging: { message: { attachments: { payload: object }[] } }[] }[])[0]!
      .messaging[0]!.message;
    message.attachments[0]!.payload = { sticker_id: 369239263222822 };
    const [alone] = parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, body);
    expect(alone).toMatchObject({
      mediaType: 'sticker',
      media: { ref: 'https://scontent.xx.fbcdn.net/v/t39.1997-6/like.png' },
    });
    // The same file listed twice is one file; two different files stay two.
    message.attachments = [
      { type: 'image', payload: { url: 'https://cdn.fbsbx.com/a.jpg' } },
      { type: 'image', payload: { url: 'https://cdn.fbsbx.com/a.jpg' } },
    ] as never;
    expect(parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, body)).toHaveLength(1);
  });

  it('an edit (message_edit) is an edit event of the mid with the new text', () => {
    expect(messenger('messenger-edit')).toEqual([
      {
        kind: 'edit',
        providerMessageId: 'm_text_1',
        party: customer,
        body: 'Olá, meu pedido 123 não chegou',
        timestamp: T + 21,
      },
    ]);
    const noText = fixture('messenger-edit');
    const item = (noText.entry as { messaging: { message_edit: Record<string, unknown> }[] }[])[0]!.messaging[0]!;
    delete item.message_edit.text;
    expect(() => parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, noText)).toThrow(ZodError);
  });

  it('a quick reply is a button_reply carrying its payload', () => {
    expect(messenger('messenger-quick-reply')).toEqual([
      expect.objectContaining({
        providerMessageId: 'm_quick',
        mediaType: 'button_reply',
        body: 'Segunda via',
        meta: JSON.stringify({ payload: 'BOLETO' }),
      }),
    ]);
  });

  it('a postback (a button the customer pressed) is a button_reply message', () => {
    expect(messenger('messenger-postback')).toEqual([
      expect.objectContaining({
        kind: 'message',
        providerMessageId: 'm_postback',
        party: customer,
        fromMe: false,
        mediaType: 'button_reply',
        body: 'Falar com atendente',
        meta: JSON.stringify({ payload: 'HUMAN' }),
      }),
    ]);
  });

  it('a postback without a mid is keyed by sender and time, so its replay is the same message', () => {
    const body = fixture('messenger-postback');
    const item = (body.entry as { messaging: { postback: { mid?: string } }[] }[])[0]!.messaging[0]!;
    delete item.postback.mid;
    expect(parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, body)[0]).toMatchObject({
      providerMessageId: `postback:${PSID}:${T}`,
    });
  });

  it('reactions: the emoji, the name mapped when Meta sends no emoji, and an unreact as an empty reaction', () => {
    expect(messenger('messenger-reactions')).toEqual([
      { kind: 'reaction', providerMessageId: 'm_ours_1', party: customer, reaction: '❤️', timestamp: T },
      { kind: 'reaction', providerMessageId: 'm_ours_2', party: customer, reaction: '😮', timestamp: T + 1 },
      { kind: 'reaction', providerMessageId: 'm_ours_1', party: customer, reaction: '', timestamp: T + 2 },
    ]);
  });

  it('a delivery acks each mid at 2; a watermark-only read marks what we sent the customer until then', () => {
    expect(messenger('messenger-delivery-read')).toEqual([
      { kind: 'ack', providerMessageId: 'm_ours_1', ack: 2, timestamp: T },
      { kind: 'ack', providerMessageId: 'm_ours_2', ack: 2, timestamp: T },
      { kind: 'read-up-to', party: customer, watermark: T + 5 },
    ]);
  });
});

describe('echoes', () => {
  it('the echo of our own send (our metadata) is skipped: the send job stored it', () => {
    expect(messenger('messenger-echo-ours')).toEqual([]);
  });

  it('an echo written in Meta inbox is stored fromMe, in the chat of its recipient', () => {
    expect(messenger('messenger-echo-inbox')).toEqual([
      expect.objectContaining({
        kind: 'message',
        providerMessageId: 'm_inbox_1',
        party: customer,
        fromMe: true,
        body: 'Respondido pela caixa de entrada da Meta',
      }),
    ]);
  });

  it('a replayed call yields the same ids (ingestion stores a provider id once)', () => {
    expect(messenger('messenger-echo-inbox')).toEqual(messenger('messenger-echo-inbox'));
  });
});

describe('Instagram', () => {
  it('a text from the IGSID (instagramPK)', () => {
    expect(instagram('instagram-text')).toEqual([
      expect.objectContaining({
        providerMessageId: 'aWdfZAG1faXRlbTox',
        party: igCustomer,
        body: 'Vocês entregam em Campinas?',
      }),
    ]);
  });

  it('a story mention keeps the story link in body and meta and downloads nothing', () => {
    const link = 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=story1';
    expect(instagram('instagram-story-mention')).toEqual([
      expect.objectContaining({
        mediaType: 'chat',
        media: null,
        body: link,
        meta: JSON.stringify({ storyMention: true, url: link }),
      }),
    ]);
  });

  it('a story reply is the text with the story in meta', () => {
    expect(instagram('instagram-story-reply')).toEqual([
      expect.objectContaining({
        body: 'Quero esse!',
        meta: JSON.stringify({
          storyReply: true,
          storyId: '17900000000000002',
          url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=story2',
        }),
        quotedProviderMessageId: null,
      }),
    ]);
  });

  it('an unsend deletes the message', () => {
    expect(instagram('instagram-unsend')).toEqual([
      { kind: 'delete', providerMessageId: 'aWdfZAG1faXRlbTox', timestamp: T },
    ]);
  });

  it('a read names the message read: ack 3', () => {
    expect(instagram('instagram-read')).toEqual([{ kind: 'ack', providerMessageId: 'm_sim_7', ack: 3, timestamp: T }]);
  });

  it('shared posts and reels become their links; an unsupported message is stored as such', () => {
    const events = instagram('instagram-share');
    expect(events.map((e) => e.kind === 'message' && [e.mediaType, e.body])).toEqual([
      ['chat', 'https://www.instagram.com/p/C0abc/'],
      ['chat', 'Nosso reel\nhttps://lookaside.fbsbx.com/reel.mp4'],
      ['unsupported', 'unsupported'],
    ]);
  });
});

describe('what is not this channel', () => {
  it('entries of another page and calls of the other object are ignored', () => {
    expect(parseMetaMessagingWebhook('messenger', { wabaId: '999' }, fixture('messenger-text'))).toEqual([]);
    expect(parseMetaMessagingWebhook('instagram', { wabaId: PAGE }, fixture('messenger-text'))).toEqual([]);
    expect(parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, fixture('instagram-text'))).toEqual([]);
  });

  it('messaging kinds we do not handle (optin, referral) yield nothing', () => {
    const body = {
      object: 'page',
      entry: [{ id: PAGE, messaging: [{ sender: { id: PSID }, recipient: { id: PAGE }, optin: { ref: 'x' } }] }],
    };
    expect(parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, body)).toEqual([]);
  });
});

describe('malformed, hostile and oversized bodies', () => {
  const parse = (body: unknown) => () => parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, body);

  it('throws a ZodError (the route answers 400) on a body of the wrong shape', () => {
    expect(parse(null)).toThrow(ZodError);
    expect(parse('page')).toThrow(ZodError);
    expect(parse({ object: 'page' })).toThrow(ZodError);
    expect(
      parse({ object: 'page', entry: [{ id: PAGE, messaging: [{ sender: {}, recipient: { id: PAGE } }] }] }),
    ).toThrow(ZodError);
    const noMid = { sender: { id: PSID }, recipient: { id: PAGE }, message: { text: 'x' } };
    expect(parse({ object: 'page', entry: [{ id: PAGE, messaging: [noMid] }] })).toThrow(ZodError);
  });

  it('refuses oversized texts and too many items instead of storing them', () => {
    const huge = fixture('messenger-text');
    const messaging = (huge.entry as { messaging: { message: { text: string } }[] }[])[0]!.messaging;
    messaging[0]!.message.text = 'x'.repeat(20_001);
    expect(parse(huge)).toThrow(ZodError);
    const many = { object: 'page', entry: Array.from({ length: 1_001 }, () => ({ id: PAGE, messaging: [] })) };
    expect(parse(many)).toThrow(ZodError);
  });

  it('prototype keys and non-http attachment links do not leak into events', () => {
    const body = JSON.parse(
      `{"object":"page","__proto__":{"polluted":true},"entry":[{"id":"${PAGE}","messaging":[{"sender":{"id":"${PSID}"},` +
        `"recipient":{"id":"${PAGE}"},"timestamp":1,"message":{"mid":"m_x","attachments":[{"type":"image",` +
        `"payload":{"url":"file:///etc/passwd"}}]}}]}]}`,
    ) as unknown;
    const [event] = parseMetaMessagingWebhook('messenger', { wabaId: PAGE }, body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A link that is not http(s) is never handed to the media job.
    expect(event).toMatchObject({ kind: 'message', media: null, mediaType: 'unsupported' });
  });
});

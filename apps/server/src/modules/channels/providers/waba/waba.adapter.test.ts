/**
 * The waba adapter against the Graph simulator (real HTTP): the Cloud API bodies of every send kind, reactions,
 * what the Cloud API cannot do, start, media download bounds, the signature check and the tenant token fallback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelCredentials, OutboundMessage } from '../../channels.adapter.js';
import { signMetaBody } from '../../providers/meta/meta.signature.js';
import { createWabaAdapter } from './waba.adapter.js';
import { startWabaSimulator, type WabaSimulator } from './waba.simulator.js';

let sim: WabaSimulator;
let adapter: ReturnType<typeof createWabaAdapter>;
const TO = '5511987654321';

const channel: ChannelCredentials = {
  id: 7,
  tenantId: 3,
  type: 'waba',
  name: 'Loja',
  number: null,
  tokenTelegram: null,
  tokenAPI: 'EAAG-adapter',
  wabaId: '1100001',
  bmToken: '2200001',
  wabaVersion: '20.0',
  remotePath: null,
  webhookSecret: 'secret',
  metaAppSecret: 'channel-app-secret',
  providerState: {},
  routing: { queueId: null, userId: null },
};
const message = (values: Partial<OutboundMessage>): OutboundMessage => ({
  to: TO,
  body: '',
  mediaType: 'chat',
  media: null,
  replyToProviderMessageId: null,
  ...values,
});
const lastBody = () => sim.sends.at(-1)!.body;

beforeAll(async () => {
  sim = await startWabaSimulator();
  sim.phones.set('1100001', {
    token: 'EAAG-adapter',
    displayPhoneNumber: '+55 11 3000-0001',
    verifiedName: 'Loja',
    businessAccountId: '2200001',
  });
  adapter = createWabaAdapter({ graphUrl: sim.url, appSecret: 'installation-secret' });
});
afterAll(() => sim.close());
beforeEach(() => void sim.sends.splice(0));

describe('waba adapter: sends', () => {
  it('text: to the digits, preview_url only with a link; the wamid at ack 1', async () => {
    const result = await adapter.send(channel, message({ to: '+55 (11) 98765-4321', body: 'Oi!' }));
    expect(result).toMatchObject({ providerMessageId: sim.sends[0]!.id, ack: 1 });
    expect(lastBody()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: TO,
      type: 'text',
      text: { body: 'Oi!', preview_url: false },
    });
    await adapter.send(channel, message({ body: 'veja https://example.com/pedido' }));
    expect(lastBody()).toMatchObject({ text: { preview_url: true } });
  });

  it('a reply carries context.message_id; a long text goes in parts, only the first replying', async () => {
    await adapter.send(channel, message({ body: 'x'.repeat(5000), replyToProviderMessageId: 'wamid.q1' }));
    expect(sim.sends).toHaveLength(2);
    expect(sim.sends[0]!.body).toMatchObject({ context: { message_id: 'wamid.q1' } });
    expect((sim.sends[0]!.body.text as { body: string }).body).toHaveLength(4096);
    expect(sim.sends[1]!.body.context).toBeUndefined();
  });

  it('media: uploaded first, then sent by id with caption and filename', async () => {
    const media = { data: Buffer.from('%PDF'), mime: 'application/pdf', name: 'boleto.pdf' };
    await adapter.send(channel, message({ body: 'segue', mediaType: 'application', media }));
    const body = lastBody() as { type: string; document: { id: string; caption: string; filename: string } };
    expect(body.type).toBe('document');
    expect(body.document).toMatchObject({ caption: 'segue', filename: 'boleto.pdf' });
    expect(sim.media.get(body.document.id)).toMatchObject({ mime: 'application/pdf', phoneNumberId: '1100001' });
    expect(sim.media.get(body.document.id)!.data.toString()).toBe('%PDF');
  });

  it('voice notes take no caption: the text follows as its own message', async () => {
    const media = { data: Buffer.from('OGG'), mime: 'audio/ogg', name: 'nota.ogg' };
    await adapter.send(channel, message({ body: 'ouça', mediaType: 'ptt', media }));
    expect(sim.sends.map((s) => s.body.type)).toEqual(['audio', 'text']);
    expect(sim.sends[0]!.body.audio).not.toHaveProperty('caption');
  });

  it('a body that is only the file name (uploads, recorded audio) is no text: no caption, no second message', async () => {
    const voice = { data: Buffer.from('MP3'), mime: 'audio/mpeg', name: '1764100000000.mp3' };
    await adapter.send(channel, message({ body: '1764100000000.mp3', mediaType: 'ptt', media: voice }));
    expect(sim.sends.map((s) => s.body.type)).toEqual(['audio']);
    const photo = { data: Buffer.from('JPG'), mime: 'image/jpeg', name: 'IMG_2034.jpg' };
    await adapter.send(channel, message({ body: 'IMG_2034.jpg', mediaType: 'image', media: photo }));
    expect(lastBody()).toMatchObject({ type: 'image' });
    expect((lastBody() as { image: object }).image).not.toHaveProperty('caption');
  });

  it('payloads: template, buttons, list and a file by link', async () => {
    const components = [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }] }];
    await adapter.send(
      channel,
      message({ payload: { kind: 'template', name: 'boas_vindas', language: 'pt_BR', components } }),
    );
    expect(lastBody()).toMatchObject({
      type: 'template',
      template: { name: 'boas_vindas', language: { code: 'pt_BR' }, components },
    });
    await adapter.send(
      channel,
      message({
        payload: {
          kind: 'buttons',
          body: 'Confirma?',
          header: 'Pedido',
          footer: 'Loja',
          buttons: [
            { id: 'y', title: 'Sim' },
            { id: 'n', title: 'Não' },
          ],
        },
      }),
    );
    expect(lastBody()).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'text', text: 'Pedido' },
        body: { text: 'Confirma?' },
        footer: { text: 'Loja' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'y', title: 'Sim' } },
            { type: 'reply', reply: { id: 'n', title: 'Não' } },
          ],
        },
      },
    });
    await adapter.send(
      channel,
      message({
        payload: {
          kind: 'list',
          body: 'Escolha',
          button: 'Opções',
          sections: [{ title: 'Boletos', rows: [{ id: 'r1', title: 'Segunda via', description: 'do mês' }] }],
        },
      }),
    );
    expect(lastBody()).toMatchObject({
      interactive: {
        type: 'list',
        action: {
          button: 'Opções',
          sections: [{ title: 'Boletos', rows: [{ id: 'r1', title: 'Segunda via', description: 'do mês' }] }],
        },
      },
    });
    expect((lastBody().interactive as object) ?? {}).not.toHaveProperty('header');
    await adapter.send(
      channel,
      message({
        payload: { kind: 'media-url', url: 'https://cdn.example/a.jpg', mediaType: 'image', caption: 'foto' },
      }),
    );
    expect(lastBody()).toMatchObject({ type: 'image', image: { link: 'https://cdn.example/a.jpg', caption: 'foto' } });
  });

  it('a business-scoped user id is addressed as recipient; a bad number is refused before Graph', async () => {
    await adapter.send(channel, message({ to: 'BR.1502576394655843', body: 'oi' }));
    expect(lastBody()).toMatchObject({ recipient: 'BR.1502576394655843' });
    expect(lastBody()).not.toHaveProperty('to');
    await expect(adapter.send(channel, message({ to: '12', body: 'oi' }))).rejects.toMatchObject({ permanent: true });
  });

  it('Graph refusals: 131047 (window closed) permanent with its code in the message, throttling transient', async () => {
    sim.failNextSend({ status: 400, error: { message: 'Re-engagement message', code: 131047 } });
    const error = await adapter.send(channel, message({ body: 'oi' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ permanent: true, code: 131047 });
    expect((error as Error).message).toContain('131047: Re-engagement message');
    sim.failNextSend({ status: 400, error: { message: 'Spam rate limit hit', code: 131048 } });
    await expect(adapter.send(channel, message({ body: 'oi' }))).rejects.toMatchObject({ permanent: false });
  });
});

describe('waba adapter: actions, lifecycle, media, signature', () => {
  it('react sends a reaction message (empty emoji removes it); edit and delete are refused for good', async () => {
    await adapter.react(channel, TO, 'wamid.x', '❤️');
    expect(lastBody()).toMatchObject({ to: TO, type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '❤️' } });
    await expect(adapter.edit(channel, TO, 'wamid.x', 'novo')).rejects.toMatchObject({ permanent: true });
    await expect(adapter.delete(channel, TO, 'wamid.x')).rejects.toMatchObject({ permanent: true });
    expect(adapter.capabilities).toMatchObject({ edit: false, delete: false, react: true });
  });

  it('start verifies the number: CONNECTED with its digits; a wrong token fails for good', async () => {
    expect(await adapter.start(channel, 'https://conversa.example/api/webhooks/waba/7')).toMatchObject({
      number: '551130000001',
      status: 'CONNECTED',
    });
    await expect(adapter.start({ ...channel, tokenAPI: 'wrong' }, '')).rejects.toMatchObject({ permanent: true });
    await expect(adapter.stop(channel)).resolves.toBeUndefined();
  });

  it('downloads inbound media through GET /{media-id} and its URL, within maxBytes', async () => {
    sim.media.set('3300000001', { data: Buffer.from('JPEGDATA'), mime: 'image/jpeg', name: null, phoneNumberId: null });
    expect(await adapter.downloadMedia(channel, '3300000001', 1024)).toEqual({
      data: Buffer.from('JPEGDATA'),
      mime: 'image/jpeg',
      name: null,
    });
    await expect(adapter.downloadMedia(channel, '3300000001', 4)).rejects.toMatchObject({ permanent: true });
    await expect(adapter.downloadMedia(channel, '../me', 1024)).rejects.toMatchObject({ permanent: true });
  });

  it('verifyInbound: the channel’s app secret or the installation’s, over the raw bytes', () => {
    const raw = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
    const check = (secret: string | null, over = raw) =>
      adapter.verifyInbound(channel, {
        headers: secret ? { 'x-hub-signature-256': signMetaBody(over, secret) } : {},
        body: {},
        rawBody: raw,
      });
    expect(check('channel-app-secret')).toBe(true);
    expect(check('installation-secret')).toBe(true);
    expect(check('other-app')).toBe(false);
    expect(check(null)).toBe(false);
    expect(check('channel-app-secret', Buffer.from('{}'))).toBe(false);
  });

  it('a channel without a token uses the tenant’s wabaToken; without either the send fails for good', async () => {
    const asked: number[] = [];
    const withTenant = createWabaAdapter({
      graphUrl: sim.url,
      tenantToken: (tenantId) => {
        asked.push(tenantId);
        return Promise.resolve('EAAG-adapter');
      },
    });
    await withTenant.send({ ...channel, tokenAPI: null }, message({ body: 'oi' }));
    expect(asked).toEqual([3]);
    expect(sim.sends.at(-1)!.token).toBe('EAAG-adapter');
    await expect(adapter.send({ ...channel, tokenAPI: '' }, message({ body: 'oi' }))).rejects.toMatchObject({
      permanent: true,
    });
  });
});

/**
 * The `/wabameta*` routes over real HTTP, with the Graph simulator behind META_GRAPH_URL: phone verification (ok,
 * wrong token or account -> 'Ops! Dados WABA incorretos.', stored secrets reused), the business managers of the
 * tenant's Meta token, and the sends — each stored pending and carried by the send job to the simulator with the
 * Cloud API JSON (template, buttons, list, text, file by URL, reaction) — with their validation (Meta's limits),
 * their permissions, the channel type rule and tenant isolation (another tenant's ticket or channel: 404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto, WabaVerifyBmsResponse } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { sendJob } from '../../../../test/messages-kit.js';
import { startWabaSimulator, type WabaSimulator } from './waba.simulator.js';
import { cacheTemplates, HOUR, makeConversation, makeMetaChannel } from '../../../../test/waba-kit.js';

const PHONE = '100200300401';
const ACCOUNT = '900800700601';
const TOKEN = 'EAAG-routes-token';
const CUSTOMER = '5511987650042';

let sim: WabaSimulator;
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let intruder: TestUser;
let channelId: number;
let ticketId: number;

type Sent = { data: MessageDto };
/** Runs the queued sends and answers the Cloud API bodies the simulator received for the customer. */
async function delivered(): Promise<Record<string, unknown>[]> {
  const before = sim.sendsTo(CUSTOMER).length;
  await t.jobs.runPending(sendJob(t));
  return sim
    .sendsTo(CUSTOMER)
    .slice(before)
    .map((send) => send.body);
}
const post = (user: TestUser, path: string, body: object) => t.call(user, 'POST', path, body);

beforeAll(async () => {
  sim = await startWabaSimulator();
  sim.phones.set(PHONE, {
    token: TOKEN,
    displayPhoneNumber: '+55 11 3000-4001',
    verifiedName: 'Loja Oficial',
    businessAccountId: ACCOUNT,
  });
  t = await createTestApp({ META_GRAPH_URL: sim.url });
  ({ admin, agent } = await t.createStaff());
  ({ admin: intruder } = await t.createStaff(await t.createTenant()));
  channelId = await makeMetaChannel(t, 1, { wabaId: PHONE, bmToken: ACCOUNT, tokenAPI: TOKEN, number: '551130004001' });
  ({ ticketId } = await makeConversation(t, 1, {
    channelId,
    customer: CUSTOMER,
    userId: agent.id,
    lastReceivedAt: new Date(Date.now() - HOUR),
  }));
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('POST /wabametaVerifyPhone', () => {
  it("answers the number and verified name Graph reports for the form's credentials", async () => {
    const res = await post(admin, '/wabametaVerifyPhone', {
      tokenAPI: TOKEN,
      wabaId: PHONE,
      bmToken: ACCOUNT,
      wabaVersion: '20.0',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, number: '551130004001', verifiedName: 'Loja Oficial' });
    expect(sim.requests.at(-1)).toMatchObject({ path: `/${ACCOUNT}/message_templates`, token: TOKEN });
  });

  it("a wrong token, another account, a malformed id or no token at all is 'Ops! Dados WABA incorretos.'", async () => {
    const bodies = [
      { tokenAPI: 'EAAG-wrong', wabaId: PHONE },
      { tokenAPI: TOKEN, wabaId: PHONE, bmToken: '900800700999' },
      { tokenAPI: TOKEN, wabaId: '../me/businesses' },
      { tokenAPI: TOKEN, wabaId: PHONE, wabaVersion: 'latest' },
      { wabaId: PHONE },
    ];
    for (const body of bodies) {
      const res = await post(admin, '/wabametaVerifyPhone', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_WABA_DATA_INVALID' });
    }
  });

  it("an existing channel's empty secrets are the stored ones; another tenant's channel is not found", async () => {
    const res = await post(admin, '/wabametaVerifyPhone', {
      tokenAPI: '',
      bmToken: '',
      wabaId: PHONE,
      whatsappId: channelId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(sim.requests.at(-1)?.token).toBe(TOKEN);
    const stolen = await post(intruder, '/wabametaVerifyPhone', { wabaId: PHONE, whatsappId: channelId });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
  });

  it("without a token of its own the form is checked with the tenant's default Cloud API token", async () => {
    await t.database.executeSql('update tenants set waba_token = $1 where id = 1', [TOKEN]);
    try {
      const res = await post(admin, '/wabametaVerifyPhone', { tokenAPI: '', wabaId: PHONE });
      expect(res.statusCode, res.body).toBe(200);
      expect(sim.requests.at(-1)).toMatchObject({ path: `/${PHONE}`, token: TOKEN });
    } finally {
      await t.database.executeSql('update tenants set waba_token = null where id = 1');
    }
  });

  it('agents may not verify (nor list business managers)', async () => {
    const res = await post(agent, '/wabametaVerifyPhone', { tokenAPI: TOKEN, wabaId: PHONE });
    expect(res.statusCode).toBe(403);
    expect((await post(agent, '/wabametaVerifyBms', {})).statusCode).toBe(403);
  });
});

describe('POST /wabametaVerifyBms', () => {
  it("needs the tenant's Meta token, then lists the business accounts and their numbers", async () => {
    expect((await post(admin, '/wabametaVerifyBms', {})).json()).toMatchObject({ error: 'ERR_META_TOKEN_MISSING' });
    await t.database.executeSql("update tenants set meta_token = 'EAAG-business' where id = 1");
    sim.businesses.set('EAAG-business', [
      { id: '300000000000001', name: 'Loja Matriz', accounts: [{ id: ACCOUNT, name: 'WABA Loja' }] },
    ]);
    const res = await post(admin, '/wabametaVerifyBms', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WabaVerifyBmsResponse>().data).toEqual([
      {
        id: ACCOUNT,
        name: 'WABA Loja',
        phoneNumbers: [{ id: PHONE, displayPhoneNumber: '+55 11 3000-4001', verifiedName: 'Loja Oficial' }],
      },
    ]);
    await t.database.executeSql("update tenants set meta_token = 'EAAG-revoked' where id = 1");
    expect((await post(admin, '/wabametaVerifyBms', {})).json()).toMatchObject({ error: 'ERR_WABA_DATA_INVALID' });
  });
});

describe('template sends', () => {
  beforeAll(async () => {
    await cacheTemplates(t, 1, channelId, [
      {
        name: 'pedido_enviado',
        language: 'pt_BR',
        status: 'APPROVED',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}' },
          { type: 'BODY', text: 'Seu pedido {{1}} chega em {{2}}.' },
          { type: 'FOOTER', text: 'Loja Oficial' },
        ],
      },
      { name: 'em_analise', language: 'pt_BR', status: 'PENDING', components: [{ type: 'BODY', text: 'x' }] },
    ]);
  });
  const components = [
    { type: 'header', parameters: [{ type: 'text', text: 'Maria' }] },
    {
      type: 'body',
      parameters: [
        { type: 'text', text: '#42' },
        { type: 'text', text: 'amanhã' },
      ],
    },
  ];

  it('stores the rendered text and reaches Graph with the template JSON (extra client fields ignored)', async () => {
    const res = await post(agent, '/wabametaTemplateComponents', {
      ticketId,
      idFront: 'tpl-1',
      templateName: 'pedido_enviado',
      language: 'pt_BR',
      components,
      // What the reference client also sends: never read.
      from: '5500000000000',
      phone_number_id: '1',
      tokenApi: 'someone-else',
      body: JSON.stringify(components),
      mediaType: 'templates',
      sendType: 'templates',
      read: 1,
      fromMe: true,
      mediaUrl: '',
      scheduleDate: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Sent>().data).toMatchObject({
      mediaType: 'templates',
      fromMe: true,
      ack: 0,
      body: '*Olá Maria*\n\nSeu pedido #42 chega em amanhã.\n\n_Loja Oficial_',
    });
    expect(await delivered()).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: CUSTOMER,
        type: 'template',
        template: { name: 'pedido_enviado', language: { code: 'pt_BR' }, components },
      },
    ]);
    expect(sim.sends.at(-1)).toMatchObject({ phoneNumberId: PHONE, token: TOKEN });
  });

  it('a template not cached APPROVED is 404 ERR_NO_TEMPLATE_FOUND; a wrong parameter count 400 on components', async () => {
    for (const [templateName, language] of [
      ['em_analise', 'pt_BR'],
      ['pedido_enviado', 'en_US'],
      ['nao_existe', 'pt_BR'],
    ]) {
      const res = await post(agent, '/wabametaTemplateComponents', { ticketId, templateName, language, components });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_TEMPLATE_FOUND' });
    }
    for (const sent of [components.slice(0, 1), [{ type: 'body', parameters: [{ type: 'text', text: 'só um' }] }]]) {
      const res = await post(agent, '/wabametaTemplateComponents', {
        ticketId,
        templateName: 'pedido_enviado',
        language: 'pt_BR',
        components: sent,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'components' });
    }
    expect(await delivered()).toEqual([]);
  });
});

describe('interactive sends', () => {
  it('buttons reach Graph as reply buttons (ids given or by position)', async () => {
    const res = await post(agent, '/wabametaButton', {
      ticketId,
      body: 'Confirma a entrega?',
      header: 'Entrega',
      footer: 'Responda com um toque',
      buttons: [{ id: 'yes', title: 'Sim' }, { title: 'Não' }, { title: 'Remarcar' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Sent>().data).toMatchObject({
      mediaType: 'button',
      body: '*Entrega*\n\nConfirma a entrega?\n\n_Responda com um toque_\n\n[Sim] [Não] [Remarcar]',
    });
    const [body] = await delivered();
    expect(body).toMatchObject({
      to: CUSTOMER,
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'text', text: 'Entrega' },
        body: { text: 'Confirma a entrega?' },
        footer: { text: 'Responda com um toque' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'yes', title: 'Sim' } },
            { type: 'reply', reply: { id: 'btn-2', title: 'Não' } },
            { type: 'reply', reply: { id: 'btn-3', title: 'Remarcar' } },
          ],
        },
      },
    });
  });

  it("buttons outside Meta's limits are 400 ERR_VALIDATION naming the field, and nothing is stored", async () => {
    const cases: [object[], string][] = [
      [[{ title: 'A' }, { title: 'B' }, { title: 'C' }, { title: 'D' }], 'buttons'],
      [[], 'buttons'],
      [[{ title: 'x'.repeat(21) }], 'buttons.0.title'],
      [[{ title: '' }], 'buttons.0.title'],
      [[{ title: 'Sim' }, { title: 'SIM' }], 'buttons'],
      [
        [
          { id: 'a', title: 'Sim' },
          { id: 'a', title: 'Não' },
        ],
        'buttons',
      ],
    ];
    for (const [buttons, field] of cases) {
      const res = await post(agent, '/wabametaButton', { ticketId, body: 'Escolha', buttons });
      expect(res.statusCode, JSON.stringify(buttons)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    expect(await delivered()).toEqual([]);
  });

  it('a list reaches Graph with its sections and rows', async () => {
    const res = await post(agent, '/wabametaList', {
      ticketId,
      body: 'Escolha um horário',
      button: 'Ver horários',
      sections: [
        { title: 'Manhã', rows: [{ id: 'm9', title: '09:00', description: 'Primeiro horário' }, { title: '10:00' }] },
        { title: 'Tarde', rows: [{ title: '14:00' }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Sent>().data).toMatchObject({ mediaType: 'list', body: 'Escolha um horário\n\n[Ver horários]' });
    const [body] = await delivered();
    expect(body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Escolha um horário' },
        action: {
          button: 'Ver horários',
          sections: [
            {
              title: 'Manhã',
              rows: [
                { id: 'm9', title: '09:00', description: 'Primeiro horário' },
                { id: 'row-1', title: '10:00' },
              ],
            },
            { title: 'Tarde', rows: [{ id: 'row-2', title: '14:00' }] },
          ],
        },
      },
    });
  });

  it("lists outside Meta's limits are 400 ERR_VALIDATION", async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `Opção ${i + 1}` }));
    const cases: [object, string][] = [
      [{ button: 'Ver', sections: [{ title: 'A', rows: rows(11) }] }, 'sections'],
      [
        {
          button: 'Ver',
          sections: [
            { title: 'A', rows: rows(6) },
            { title: 'B', rows: rows(5) },
          ],
        },
        'sections',
      ],
      [{ button: 'Ver', sections: Array.from({ length: 11 }, () => ({ title: 'S', rows: rows(1) })) }, 'sections'],
      [{ button: 'Ver', sections: [{ title: 'A', rows: [{ title: 'x'.repeat(25) }] }] }, 'sections.0.rows.0.title'],
      [{ button: 'x'.repeat(21), sections: [{ title: 'A', rows: rows(1) }] }, 'button'],
      [{ button: 'Ver', sections: [] }, 'sections'],
    ];
    for (const [list, field] of cases) {
      const res = await post(agent, '/wabametaList', { ticketId, body: 'Escolha', ...list });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    expect(await delivered()).toEqual([]);
  });
});

describe('text, files by URL, uploads and reactions', () => {
  it('a text reaches Graph; a reaction to it goes out by its wamid', async () => {
    const res = await post(agent, '/wabametaText', { ticketId, body: 'Bom dia!', tokenApi: 'ignored', from: 'x' });
    expect(res.statusCode, res.body).toBe(200);
    const [body] = await delivered();
    expect(body).toMatchObject({ to: CUSTOMER, type: 'text', text: { body: 'Bom dia!' } });
    const wamid = sim.sendsTo(CUSTOMER).at(-1)!.id;
    const reaction = await post(agent, '/wabametaReaction', {
      ticketId,
      messageId: res.json<Sent>().data.id,
      emojiReaction: '👍',
    });
    expect(reaction.statusCode, reaction.body).toBe(200);
    expect(reaction.json()).toEqual({ ok: true });
    expect(sim.sendsTo(CUSTOMER).at(-1)!.body).toMatchObject({
      type: 'reaction',
      reaction: { message_id: wamid, emoji: '👍' },
    });
  });

  it('a file by URL goes out as a link of its type; a URL that is not http(s) is refused', async () => {
    const res = await post(agent, '/wabametaFileUrl', {
      ticketId,
      url: 'https://cdn.example/catalogo.pdf',
      caption: 'Nosso catálogo',
      filename: 'catalogo.pdf',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Sent>().data).toMatchObject({ mediaType: 'application', body: 'Nosso catálogo' });
    const [body] = await delivered();
    expect(body).toMatchObject({
      type: 'document',
      document: { link: 'https://cdn.example/catalogo.pdf', caption: 'Nosso catálogo', filename: 'catalogo.pdf' },
    });
    const bad = await post(agent, '/wabametaFileUrl', { ticketId, url: 'file:///etc/passwd' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'url' });
  });

  it('an uploaded file (multipart, ticketId in the form) is uploaded to Graph and sent by its media id', async () => {
    const boundary = '----waba-upload';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/wabametaFile',
      headers: { ...agent.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="tokenApi"\r\n\r\nignored\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\n` +
        `png-bytes\r\n--${boundary}\r\nContent-Disposition: form-data; name="ticketId"\r\n\r\n${ticketId}\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Sent>().data).toMatchObject({ mediaType: 'image', mediaName: 'foto.png' });
    const [body] = await delivered();
    expect(body).toMatchObject({ type: 'image', image: { id: expect.any(String) } });
  });
});

describe('stickers', () => {
  it('by URL (JSON) or uploaded (multipart) they go out as stickers', async () => {
    const byUrl = await post(agent, '/wabametaSticker', { ticketId, url: 'https://cdn.example/oi.webp' });
    expect(byUrl.statusCode, byUrl.body).toBe(200);
    expect(byUrl.json<Sent>().data).toMatchObject({ mediaType: 'sticker' });
    expect(await delivered()).toMatchObject([{ type: 'sticker', sticker: { link: 'https://cdn.example/oi.webp' } }]);

    const boundary = '----waba-sticker';
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/wabametaSticker?ticketId=${ticketId}`,
      headers: { ...agent.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="oi.webp"\r\nContent-Type: image/webp\r\n\r\n` +
        `webp-bytes\r\n--${boundary}--\r\n`,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json<Sent>().data).toMatchObject({ mediaType: 'sticker', isSticker: true });
    expect(await delivered()).toMatchObject([{ type: 'sticker', sticker: { id: expect.any(String) } }]);
  });
});

describe('channel type, permissions and isolation', () => {
  it('a ticket that is not on a waba channel is 400 ERR_CHANNEL_TYPE_UNSUPPORTED', async () => {
    const telegram = await makeMetaChannel(t, 1, { type: 'telegram', tokenTelegram: '1:a' });
    const other = await makeConversation(t, 1, { channelId: telegram, channelType: 'telegram', userId: agent.id });
    const res = await post(agent, '/wabametaText', { ticketId: other.ticketId, body: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_CHANNEL_TYPE_UNSUPPORTED' });
  });

  it("another tenant's ticket is 404 on every send route and nothing reaches Graph", async () => {
    const before = sim.sends.length;
    const bodies: [string, object][] = [
      ['/wabametaText', { ticketId, body: 'x' }],
      ['/wabametaFileUrl', { ticketId, url: 'https://cdn.example/a.png' }],
      ['/wabametaSticker', { ticketId, url: 'https://cdn.example/a.webp' }],
      ['/wabametaButton', { ticketId, body: 'x', buttons: [{ title: 'Sim' }] }],
      ['/wabametaList', { ticketId, body: 'x', button: 'Ver', sections: [{ title: 'A', rows: [{ title: 'Um' }] }] }],
      ['/wabametaReaction', { ticketId, messageId: 1, emojiReaction: '👍' }],
      ['/wabametaTemplateComponents', { ticketId, templateName: 'pedido_enviado', language: 'pt_BR', components: [] }],
    ];
    for (const [path, body] of bodies) {
      const res = await post(intruder, path, body);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    }
    await t.jobs.runPending(sendJob(t));
    expect(sim.sends.length).toBe(before);
  });
});

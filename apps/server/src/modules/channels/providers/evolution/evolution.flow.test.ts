/**
 * Evolution end to end through real HTTP on both sides: the tenant's gateway defaults, an `evo` channel created from
 * them, connected through the simulator (QR code, then connection.update open), customer messages posted to our
 * webhook as Evolution posts them (the configured URL and secret header), the agent's reply through /evo-message
 * reaching the simulator, receipts moving the ack forward, media downloaded, reactions and edits through /evo-react
 * and /evo-edition, and the Evolution-only /evo-qrcode and /evo-setwebhook.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChannelDto,
  ChannelSessionState,
  MessageDto,
  MessageListResponse,
  TicketDto,
  TicketListResponse,
} from '@conversa/shared';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { EVOLUTION_SEND_ERROR } from './evolution.parse.js';
import { EVOLUTION_SECRET_HEADER } from './evolution.schemas.js';
import { startEvolutionSimulator, type EvolutionSimulator } from './evolution.simulator.js';

const dataOf = (name: string): Record<string, unknown> =>
  (
    JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as {
      data: Record<string, unknown>;
    }
  ).data;

let t: TestApp;
let sim: EvolutionSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;
/** The channel's name (and `wabaId`); its instance on the shared gateway is one the start names (INSTANCE). */
const NAME = 'LojaCentro';
let INSTANCE = '';

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
const deliver = (request: ReturnType<EvolutionSimulator['webhook']>) =>
  t.app.inject({ method: 'POST', url: request.path, headers: request.headers, payload: request.payload });
const evolutionSends = (event: string, data: unknown) => deliver(sim.webhook(INSTANCE, event, data));
const countMessages = async () => {
  const { rows } = await t.database.executeSql('select count(*)::int as n from messages');
  return Number((rows[0] as { n: number }).n);
};

beforeAll(async () => {
  sim = await startEvolutionSimulator();
  t = await createTestApp({ PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('tenant gateway defaults', () => {
  it('validates the URLs and lets only the tenant admin (or the superadmin) write them', async () => {
    const path = `/tenantsEvolutionHost/${admin.tenantId}`;
    const invalid = await t.call(admin, 'PUT', path, { evoHost: 'not a url', evoToken: 'k' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const ftp = await t.call(admin, 'PUT', `/tenantsWuzapiHost/${admin.tenantId}`, { wuzapiHost: 'ftp://wuz.example' });
    expect(ftp.statusCode).toBe(400);
    expect((await t.call(agent, 'PUT', path, { evoHost: sim.url })).statusCode).toBe(403);
    const other = await t.call(admin, 'PUT', `/tenantsEvolutionHost/${admin.tenantId + 1000}`, { evoHost: sim.url });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
  });

  it('stores the hosts and a write-only Evolution key; GET /tenants/undefined shows hosts, never the key', async () => {
    const saved = await t.call(admin, 'PUT', `/tenantsEvolutionHost/${admin.tenantId}`, {
      id: admin.tenantId,
      evoHost: sim.url,
      evoToken: sim.apiKey,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ id: admin.tenantId, wuzapiHost: null, evoHost: sim.url, evoTokenConfigured: true });
    const wuz = await t.call(admin, 'PUT', `/tenantsWuzapiHost/${admin.tenantId}`, {
      wuzapiHost: 'https://wuz.example',
    });
    expect(wuz.json()).toMatchObject({ wuzapiHost: 'https://wuz.example', evoTokenConfigured: true });
    // The form echoes an empty key: the stored one stays.
    await t.call(admin, 'PUT', `/tenantsEvolutionHost/${admin.tenantId}`, { evoHost: sim.url, evoToken: '' });
    const [tenant] = (await t.call(agent, 'GET', '/tenants/undefined')).json<Record<string, unknown>[]>();
    expect(tenant).toMatchObject({ wuzapiHost: 'https://wuz.example', evoHost: sim.url, evoTokenConfigured: true });
    expect(JSON.stringify(tenant)).not.toContain(sim.apiKey);
  });
});

describe('an Evolution channel', () => {
  it('is created from the tenant defaults with the name reduced to an instance name, fixed afterwards', async () => {
    const bad = await t.call(admin, 'POST', '/whatsapp', { name: 'X', type: 'evo', remotePath: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'ERR_VALIDATION', field: 'remotePath' });
    const created = await t.call(admin, 'POST', '/whatsapp', { name: 'Loja Centro!', type: 'evo' });
    expect(created.statusCode, created.body).toBe(201);
    channel = created.json<ChannelDto>();
    expect(channel).toMatchObject({ name: NAME, wabaId: NAME, remotePath: sim.url, status: 'DISCONNECTED' });
    expect(channel.configuredSecrets).toContain('tokenAPI');
    // One instance per name: a second channel on it would take the first one's webhook.
    const twin = await t.call(admin, 'POST', '/whatsapp', { name: 'Loja Centro', type: 'evo' });
    expect(twin.json()).toEqual({ error: 'ERR_VALIDATION', field: 'name' });
    // Evolution's hyphens and underscores stay in the instance name (an own gateway's exact name).
    const exact = await t.call(admin, 'POST', '/whatsapp', { name: 'loja-centro_2', type: 'evo' });
    expect(exact.json()).toMatchObject({ name: 'lojacentro2', wabaId: 'loja-centro_2' });
    expect((await t.call(admin, 'DELETE', `/whatsapp/${exact.json<ChannelDto>().id}`)).statusCode).toBe(204);
    const unnamed = await t.call(admin, 'POST', '/whatsapp', { name: '!!! ???', type: 'evo' });
    expect(unnamed.json()).toEqual({ error: 'ERR_VALIDATION', field: 'name' });
    const renamed = await t.call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, name: 'Outra' });
    expect(renamed.json()).toEqual({ error: 'ERR_VALIDATION', field: 'name' });
    const kept = await t.call(admin, 'PUT', `/whatsapp/${channel.id}`, {
      ...channel,
      wabaId: 'Outra',
      farewellMessage: 'Tchau',
    });
    expect(kept.json<ChannelDto>()).toMatchObject({ wabaId: NAME, farewellMessage: 'Tchau' });
    // Another API URL needs its key typed again: the stored (shared) key never goes to a URL the company chose.
    const moved = await t.call(admin, 'PUT', `/whatsapp/${channel.id}`, {
      ...channel,
      remotePath: 'https://evo.example',
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({ error: 'ERR_VALIDATION', field: 'tokenAPI' });
    expect((await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json<ChannelDto>()).toMatchObject({
      remotePath: sim.url,
    });
  });

  it('connects: QR code state, a refreshed QR by webhook, then connection.update open -> CONNECTED', async () => {
    const started = await t.call(admin, 'POST', `/whatsappsession/${channel.id}`);
    expect(started.statusCode, started.body).toBe(200);
    // The company defaults are the installation's gateway: the instance is a new one, named by the start.
    const [created] = sim.callsOf('instance/create');
    INSTANCE = String(created!.body.instanceName);
    expect(INSTANCE).toMatch(/^LojaCentro_[0-9a-f]{20}$/);
    expect(started.json()).toMatchObject({ status: 'qrcode', qrcode: `2@sim-qr-${INSTANCE}-1` });
    expect(sim.instances.get(INSTANCE)!.webhook).toMatchObject({
      url: `https://conversa.example/api/webhooks/evo/${channel.id}`,
      headers: { [EVOLUTION_SECRET_HEADER]: expect.any(String) },
    });
    const qr = {
      qrcode: { instance: INSTANCE, pairingCode: null, code: '2@second-qr', base64: 'data:image/png;base64,AA' },
    };
    expect((await evolutionSends('qrcode.updated', qr)).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json()).toMatchObject({
      status: 'qrcode',
      qrcode: '2@second-qr',
    });
    expect((await deliver(sim.open(INSTANCE, '5511900000000@s.whatsapp.net'))).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json()).toMatchObject({
      status: 'CONNECTED',
      number: '5511900000000',
      qrcode: null,
    });
  });

  it('refuses a webhook without the channel secret (401) and stores nothing', async () => {
    const before = await countMessages();
    expect(before).toBeGreaterThanOrEqual(0);
    const request = sim.webhook(INSTANCE, 'messages.upsert', dataOf('text'));
    const wrong = await t.app.inject({
      method: 'POST',
      url: request.path,
      headers: { ...request.headers, [EVOLUTION_SECRET_HEADER]: 'wrong-secret' },
      payload: request.payload,
    });
    expect(wrong.statusCode).toBe(401);
    const { [EVOLUTION_SECRET_HEADER]: _omit, ...withoutSecret } = request.headers;
    void _omit;
    const missing = await t.app.inject({
      method: 'POST',
      url: request.path,
      headers: withoutSecret,
      payload: { ...request.payload, apikey: sim.apiKey },
    });
    expect(missing.statusCode).toBe(401);
    expect(await countMessages()).toBe(before);
  });
});

describe('conversation', () => {
  let ticket: TicketDto;
  let reply: MessageDto;
  const history = async () =>
    (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>().messages;

  it('stores a customer message as a pending ticket the agent sees, once even when replayed', async () => {
    expect((await evolutionSends('messages.upsert', dataOf('text'))).statusCode).toBe(200);
    expect((await evolutionSends('messages.upsert', dataOf('text'))).statusCode).toBe(200);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(1);
    expect(list.tickets[0]).toMatchObject({ status: 'pending', unreadMessages: 1, whatsappId: channel.id });
    ticket = (await t.call(agent, 'GET', `/tickets/${list.tickets[0]!.id}`)).json<TicketDto>();
    expect(ticket.contact).toMatchObject({ number: '5511987654321', name: 'Maria Souza' });
    expect((await history()).map((m) => m.body)).toEqual(['Olá, preciso de ajuda com meu pedido']);
  });

  it('keeps a customer addressed by LID in the same contact and ticket (remoteJidAlt)', async () => {
    const lid = dataOf('lid');
    (lid.key as Record<string, unknown>).remoteJidAlt = '5511987654321@s.whatsapp.net';
    expect((await evolutionSends('messages.upsert', lid)).statusCode).toBe(200);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets.map((row) => row.id)).toEqual([ticket.id]);
    expect((await history()).map((m) => m.body)).toContain('Oi, sou a Ana');
  });

  it('gives a group its own ticket, with the member who wrote', async () => {
    expect((await evolutionSends('messages.upsert', dataOf('group'))).statusCode).toBe(200);
    const list = (await t.call(admin, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    const group = list.tickets.find((row) => row.id !== ticket.id)!;
    expect(group).toMatchObject({ isGroup: true, whatsappId: channel.id });
    const detail = (await t.call(admin, 'GET', `/tickets/${group.id}`)).json<TicketDto>();
    expect(detail.contact).toMatchObject({ number: '120363025246125486@g.us', isGroup: true });
  });

  it('downloads an image through getBase64FromMediaMessage and serves it by its signed link', async () => {
    const image = dataOf('image');
    sim.instances.get(INSTANCE)!.messages.set('3A5F1C2B9D8E7F60A1B5', {
      key: (image as { key: Record<string, unknown> }).key,
      media: { data: Buffer.from('JPEGDATA'), mimetype: 'image/jpeg', fileName: 'nota.jpeg' },
    });
    expect((await evolutionSends('messages.upsert', image)).statusCode).toBe(200);
    expect(await t.jobs.runPending(job('messages.download-media'))).toBe(1);
    const photo = (await history()).find((m) => m.mediaType === 'image')!;
    expect(photo).toMatchObject({ body: 'a nota fiscal', mediaStatus: 'ready' });
    const media = await t.app.inject({ method: 'GET', url: photo.mediaUrl! });
    expect(media.statusCode).toBe(200);
    expect(media.body).toBe('JPEGDATA');
  });

  it('the agent replies through /evo-message; the send job delivers it to Evolution', async () => {
    await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    const sent = await t.call(agent, 'POST', `/evo-message/${ticket.id}`, {
      body: 'Oi, Maria!',
      fromMe: true,
      read: 1,
      mediaUrl: '',
      quotedMsg: null,
      idFront: 'evo-front-1',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    const call = sim.callsOf('message/sendText').at(-1)!;
    expect(call).toMatchObject({ instance: INSTANCE, apikey: sim.apiKey });
    expect(call.body).toEqual({ number: '5511987654321', text: 'Oi, Maria!' });
    reply = (await history()).at(-1)!;
    expect(reply).toMatchObject({ body: 'Oi, Maria!', fromMe: true, ack: 1, status: 'sended' });
    expect(reply.messageId).toMatch(/^3EB0/);
  });

  it('a voice note sent as multipart to /evo-message goes out through sendWhatsAppAudio', async () => {
    const boundary = '----evoflow';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n1763800000.ogg\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="idFront"\r\n\r\nevo-front-2\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="1763800000.ogg"\r\nContent-Type: audio/ogg\r\n\r\n`,
      ),
      Buffer.from('OggS-voice'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/evo-message/${ticket.id}`,
      headers: { ...agent.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<MessageDto>()).toMatchObject({ mediaType: 'ptt' });
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    expect(sim.callsOf('message/sendWhatsAppAudio').at(-1)!.body).toEqual({
      number: '5511987654321',
      audio: Buffer.from('OggS-voice').toString('base64'),
    });
  });

  it('messages.update receipts move the ack forward only', async () => {
    const receipt = (status: string) => ({ ...dataOf('update-read'), keyId: reply.messageId, status });
    expect((await evolutionSends('messages.update', receipt('READ'))).statusCode).toBe(200);
    expect((await history()).find((m) => m.id === reply.id)).toMatchObject({ ack: 3 });
    expect((await evolutionSends('messages.update', receipt('DELIVERY_ACK'))).statusCode).toBe(200);
    expect((await history()).find((m) => m.id === reply.id)).toMatchObject({ ack: 3 });
  });

  it('reacts through /evo-react and edits through /evo-edition, ignoring the echoed channel object', async () => {
    const customer = (await history()).find((m) => !m.fromMe && m.mediaType === 'chat')!;
    const whatsapp = { id: 999999, type: 'evo', wabaId: 'SomeoneElse' };
    const reacted = await t.call(agent, 'POST', `/evo-react/${ticket.id}`, {
      ticketId: ticket.id,
      reaction: '👍',
      messageId: customer.id,
      whatsapp,
    });
    expect(reacted.statusCode, reacted.body).toBe(200);
    expect(reacted.json<MessageDto>()).toMatchObject({ reactionFromMe: '👍' });
    expect(sim.callsOf('message/sendReaction').at(-1)).toMatchObject({
      instance: INSTANCE,
      body: { key: { id: customer.messageId, fromMe: false }, reaction: '👍' },
    });
    const edited = await t.call(agent, 'POST', `/evo-edition/${ticket.id}`, {
      ticketId: ticket.id,
      newText: 'Oi, Maria! Tudo bem?',
      messageId: reply.id,
      whatsapp,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<MessageDto>()).toMatchObject({ edition: 'Oi, Maria! Tudo bem?' });
    expect(sim.callsOf('chat/updateMessage').at(-1)!.body).toEqual({
      number: '5511987654321',
      text: 'Oi, Maria! Tudo bem?',
      key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: true, id: reply.messageId },
    });
    const invalid = await t.call(agent, 'POST', `/evo-edition/${ticket.id}`, { messageId: reply.id, newText: '' });
    expect(invalid.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });
});

describe('/evo-qrcode and /evo-setwebhook', () => {
  it('start the session and register the webhook of the tenant channel with that instance name', async () => {
    const state = await t.call(admin, 'POST', `/evo-qrcode/${NAME}`, channel);
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({ id: channel.id, status: 'CONNECTED', number: '5511900000000' });
    const sets = sim.callsOf('webhook/set').length;
    const again = await t.call(admin, 'POST', `/evo-setwebhook/${NAME}`, channel);
    expect(again.statusCode, again.body).toBe(200);
    expect(sim.callsOf('webhook/set')).toHaveLength(sets + 1);
    expect(sim.callsOf('webhook/set').at(-1)!.body).toMatchObject({
      webhook: { url: `https://conversa.example/api/webhooks/evo/${channel.id}` },
    });
  });

  it('answer 404 for an unknown instance, 403 for agents, and ERR_CHANNEL_PROVIDER when Evolution refuses', async () => {
    expect((await t.call(admin, 'POST', '/evo-qrcode/Nenhuma', {})).json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await t.call(agent, 'POST', `/evo-setwebhook/${NAME}`, {})).statusCode).toBe(403);
    sim.failNext('webhook/set', 500, 'down');
    expect((await t.call(admin, 'POST', `/evo-setwebhook/${NAME}`, {})).json()).toEqual({
      error: 'ERR_CHANNEL_PROVIDER',
    });
  });

  it('connection.update close disconnects the channel', async () => {
    expect((await deliver(sim.webhook(INSTANCE, 'connection.update', dataOf('connection-close')))).statusCode).toBe(
      200,
    );
    expect((await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json()).toMatchObject({ status: 'DISCONNECTED' });
  });

  it('a session that reconnects loses nothing: messages while DISCONNECTED are stored, connecting is OPENING', async () => {
    const before = await countMessages();
    const during = structuredClone(dataOf('text')) as { key: { id: string }; message: { conversation: string } };
    during.key.id = '3A5F1C2B9D8E7F60RECON1';
    during.message.conversation = 'chegou durante a reconexão';
    const stored = await evolutionSends('messages.upsert', during);
    expect(stored.json()).toEqual({ ok: true, received: 1, ignored: false });
    expect(await countMessages()).toBe(before + 1);
    const connecting = { instance: INSTANCE, state: 'connecting', statusReason: 200 };
    expect((await evolutionSends('connection.update', connecting)).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json()).toMatchObject({ status: 'OPENING' });
    expect((await deliver(sim.open(INSTANCE, '5511900000000@s.whatsapp.net'))).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json()).toMatchObject({ status: 'CONNECTED' });
  });

  it('messages.update ERROR marks our message undelivered with its reason; a later receipt does not clear it', async () => {
    const { rows } = await t.database.executeSql(
      'select id, ticket_id, message_id from messages where from_me and channel_id = $1 order by id desc limit 1',
      [channel.id],
    );
    const ours = rows[0] as { id: number; ticket_id: number; message_id: string };
    const status = (value: string) => ({ ...dataOf('update-read'), keyId: ours.message_id, status: value });
    expect((await evolutionSends('messages.update', status('ERROR'))).statusCode).toBe(200);
    const shown = async () =>
      (await t.call(agent, 'GET', `/messages/${ours.ticket_id}`))
        .json<MessageListResponse>()
        .messages.find((m) => m.id === ours.id);
    expect(await shown()).toMatchObject({ isDelayed: true, sendError: EVOLUTION_SEND_ERROR });
    expect((await evolutionSends('messages.update', status('DELIVERY_ACK'))).statusCode).toBe(200);
    expect(await shown()).toMatchObject({ isDelayed: true, sendError: EVOLUTION_SEND_ERROR });
  });

  it('takes the "webhook by events" URLs (<url>/messages-upsert, ...) as the channel\'s own', async () => {
    sim.instances.get(INSTANCE)!.webhook!.byEvents = true;
    try {
      const byEvent = structuredClone(dataOf('text')) as { key: { id: string } };
      byEvent.key.id = '3A5F1C2B9D8E7F60BYEVT1';
      const request = sim.webhook(INSTANCE, 'messages.upsert', byEvent);
      expect(request.path).toBe(`/api/webhooks/evo/${channel.id}/messages-upsert`);
      expect((await deliver(request)).json()).toEqual({ ok: true, received: 1, ignored: false });
      const state = sim.webhook(INSTANCE, 'connection.update', { instance: INSTANCE, state: 'open' });
      expect(state.path).toBe(`/api/webhooks/evo/${channel.id}/connection-update`);
      expect((await deliver(state)).statusCode).toBe(200);
    } finally {
      sim.instances.get(INSTANCE)!.webhook!.byEvents = false;
    }
  });

  it("refuses another instance's events posted with this channel's secret (a rewired webhook): 401, nothing stored", async () => {
    const before = await countMessages();
    const rewired = sim.webhook(INSTANCE, 'messages.upsert', dataOf('text'));
    for (const instance of [NAME, 'OutraLoja', undefined]) {
      const res = await deliver({ ...rewired, payload: { ...rewired.payload, instance } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    }
    expect(await countMessages()).toBe(before);
  });
});

describe('Evolution: login with a pairing code', () => {
  it('PUT /whatsappsession with a phone number asks instance/connect for the code of that number', async () => {
    const created = await t.call(admin, 'POST', '/whatsapp', { name: 'Loja Pareamento', type: 'evo' });
    expect(created.statusCode, created.body).toBe(201);
    const paired = created.json<ChannelDto>();
    const res = await t.call(admin, 'PUT', `/whatsappsession/${paired.id}`, { pairingNumber: '5511912345678' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ChannelSessionState>()).toMatchObject({ status: 'PAIRING', pairingCode: 'PAIR5678' });
  });
});

/**
 * A Wuzapi (meow) channel end to end over HTTP: the server talks to the Wuzapi simulator, the simulator's webhooks
 * (signed with the HMAC key the server gave it, form encoded as Wuzapi sends them by default, or JSON) reach the
 * webhook route; connect (QR, then Connected), a customer message becomes a ticket the agent sees, the reply
 * reaches the simulator, read receipts move the ack forward, media is downloaded through Wuzapi, and the agent's
 * edit/delete/reaction go out; plus the /meow-qrcode and /meow-setwebhook calls.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChannelDto,
  ChannelSessionState,
  MessageListResponse,
  TicketDto,
  TicketListResponse,
} from '@conversa/shared';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { startWuzapiSimulator, type WuzapiSimulator } from './wuzapi.simulator.js';
import { wuzapiSignature } from './wuzapi.adapter.js';

const TOKEN = 'MEOW-FLOW-TOKEN-0001';
const OWN_JID = '5511911112222:14@s.whatsapp.net';
const events = JSON.parse(fs.readFileSync(new URL('./fixtures/events.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;

let t: TestApp;
let sim: WuzapiSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
/** Posts a webhook exactly as the simulator (Wuzapi) builds it; `tamper` changes it after signing. */
async function deliver(
  name: string | Record<string, unknown>,
  format: 'form' | 'json' = 'form',
  tamper?: (r: { headers: Record<string, string>; payload: string }) => void,
) {
  const request = sim.webhook(TOKEN, typeof name === 'string' ? events[name]! : name, format);
  tamper?.(request);
  expect(request.url).toBe(`https://conversa.example/api/webhooks/meow/${channel.id}`);
  return t.app.inject({
    method: 'POST',
    url: new URL(request.url).pathname,
    headers: request.headers,
    payload: request.payload,
  });
}
const channelNow = async () => (await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json<ChannelDto>();
const history = async (ticketId: number) =>
  (await t.call(agent, 'GET', `/messages/${ticketId}`)).json<MessageListResponse>().messages;

beforeAll(async () => {
  sim = await startWuzapiSimulator();
  sim.addUser(TOKEN);
  t = await createTestApp({ PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name: 'Loja WhatsApp',
    type: 'meow',
    remotePath: sim.url,
    tokenAPI: TOKEN,
    wabaId: 'loja01',
  });
  expect(created.statusCode, created.body).toBe(201);
  channel = created.json<ChannelDto>();
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('Wuzapi: connect, converse, acks, media, actions', () => {
  let ticket: TicketDto;
  let sentId: string;

  it('connecting registers the HMAC key and webhook, connects, and shows the QR; then Connected', async () => {
    const started = await t.call(admin, 'POST', `/whatsappsession/${channel.id}`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json<ChannelSessionState>()).toMatchObject({
      status: 'qrcode',
      qrcode: expect.stringMatching(/^data:image\/png/),
    });
    const user = sim.users.get(TOKEN)!;
    expect(user.hmacKey).toHaveLength(43);
    expect(user.webhook).toBe(`https://conversa.example/api/webhooks/meow/${channel.id}`);
    expect(user.events).toEqual(expect.arrayContaining(['Message', 'ReadReceipt', 'QR', 'Connected']));

    expect((await deliver('qr')).statusCode).toBe(200);
    expect(await channelNow()).toMatchObject({ status: 'qrcode', qrcode: events.qr!.qrCodeBase64 });

    sim.login(TOKEN, OWN_JID);
    expect((await deliver('pair-success')).statusCode).toBe(200);
    expect((await deliver('connected')).statusCode).toBe(200);
    expect(await channelNow()).toMatchObject({ status: 'CONNECTED', number: '5511911112222', qrcode: null });
  });

  it('a wrong, missing or stale signature is 401 and stores nothing; a body that is not JSON is 400', async () => {
    const tampered = await deliver('text', 'form', (r) => {
      r.payload = r.payload.replace('pedido', 'pedidx');
    });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json()).toMatchObject({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    const unsigned = await deliver('text', 'json', (r) => {
      delete r.headers['x-hmac-signature'];
    });
    expect(unsigned.statusCode).toBe(401);
    const wrongKey = await deliver('text', 'json', (r) => {
      r.headers['x-hmac-signature'] = 'a'.repeat(64);
    });
    expect(wrongKey.statusCode).toBe(401);
    // Unsigned, a body is not even read; signed, a body that is not JSON is the parser's 400.
    const notJson = (signed: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/api/webhooks/meow/${channel.id}`,
        headers: {
          'content-type': 'application/json',
          ...(signed ? { 'x-hmac-signature': wuzapiSignature('{"type":', sim.users.get(TOKEN)!.hmacKey!) } : {}),
        },
        payload: '{"type":',
      });
    expect((await notJson(false)).statusCode).toBe(401);
    expect((await notJson(true)).statusCode).toBe(400);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(0);
  });

  it("refuses a signed webhook naming another Wuzapi user (userID, or the form's token): 401, nothing stored", async () => {
    const ownId = sim.users.get(TOKEN)!.live.id;
    expect((await channelNow()).number).toBe('5511911112222');
    const otherUser = await deliver('text', 'json', (r) => {
      const body = JSON.parse(r.payload) as Record<string, unknown>;
      expect(body.userID).toBe(ownId);
      r.payload = JSON.stringify({ ...body, userID: 'user-of-another-company' });
      r.headers['x-hmac-signature'] = wuzapiSignature(r.payload, sim.users.get(TOKEN)!.hmacKey!);
    });
    expect(otherUser.statusCode).toBe(401);
    expect(otherUser.json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    const otherToken = await deliver('text', 'form', (r) => {
      r.payload = r.payload.replace(`token=${TOKEN}`, 'token=another-users-token');
      r.headers['x-hmac-signature'] = wuzapiSignature(r.payload, sim.users.get(TOKEN)!.hmacKey!);
    });
    expect(otherToken.statusCode).toBe(401);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(0);
  });

  it('a signed form-encoded message becomes one pending ticket the agent sees, once even when replayed', async () => {
    expect((await deliver('text')).statusCode).toBe(200);
    expect((await deliver('text')).statusCode).toBe(200);
    // The same message by its LID chat is the same contact, the same ticket.
    expect((await deliver('lid', 'json')).statusCode).toBe(200);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(1);
    expect(list.tickets[0]).toMatchObject({ status: 'pending', whatsappId: channel.id });
    ticket = (await t.call(agent, 'GET', `/tickets/${list.tickets[0]!.id}`)).json<TicketDto>();
    expect(ticket.contact).toMatchObject({ number: '5511987650001', name: 'Maria Souza' });
    expect((await history(ticket.id)).map((m) => m.body)).toEqual([
      'Olá, preciso de ajuda com meu pedido',
      'Mensagem pelo LID',
    ]);
  });

  it('an image (JSON webhook) is downloaded through /chat/downloadimage and served by its link', async () => {
    const image = events.image!.event as { Message: { imageMessage: { directPath: string } } };
    sim.media.set(image.Message.imageMessage.directPath, { data: Buffer.from('JPEGDATA'), mime: 'image/jpeg' });
    expect((await deliver('image', 'json')).statusCode).toBe(200);
    expect(await t.jobs.runPending(job('messages.download-media'))).toBe(1);
    expect(sim.callsOf('/chat/downloadimage')).toHaveLength(1);
    const photo = (await history(ticket.id)).find((m) => m.mediaType === 'image')!;
    expect(photo).toMatchObject({ body: 'a nota fiscal', mediaStatus: 'ready' });
    const media = await t.app.inject({ method: 'GET', url: photo.mediaUrl! });
    expect(media.statusCode).toBe(200);
    expect(media.body).toBe('JPEGDATA');
  });

  it('the agent replies; the send job posts /chat/send/text to the number', async () => {
    await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    const sent = await t.call(agent, 'POST', `/messages/${ticket.id}`, { body: 'Oi, Maria!', idFront: 'front-1' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    const call = sim.callsOf('/chat/send/text').at(-1)!;
    expect(call).toMatchObject({ token: TOKEN, body: { Phone: '5511987650001', Body: 'Oi, Maria!' } });
    sentId = call.body.Id as string;
    expect((await history(ticket.id)).at(-1)).toMatchObject({
      body: 'Oi, Maria!',
      fromMe: true,
      ack: 1,
      messageId: sentId,
    });
  });

  it('receipts move the ack forward only: delivered 2, read 3, a late delivered leaves 3', async () => {
    const receipt = (name: string) => {
      const base = events[name]!;
      return { ...base, event: { ...(base.event as object), MessageIDs: [sentId] } };
    };
    expect((await deliver(receipt('delivered'))).statusCode).toBe(200);
    expect((await history(ticket.id)).at(-1)).toMatchObject({ messageId: sentId, ack: 2 });
    expect((await deliver(receipt('read'), 'json')).statusCode).toBe(200);
    expect((await history(ticket.id)).at(-1)).toMatchObject({ ack: 3 });
    expect((await deliver(receipt('delivered'))).statusCode).toBe(200);
    expect((await history(ticket.id)).at(-1)).toMatchObject({ ack: 3 });
  });

  it('edit, reaction and delete of the agent message go to Wuzapi', async () => {
    const ours = (await history(ticket.id)).at(-1)!;
    const edited = await t.call(agent, 'POST', '/messages/editMessage', {
      messageId: ours.id,
      ticketId: ticket.id,
      newBody: 'Oi, Maria! Tudo bem?',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(sim.callsOf('/chat/send/edit').at(-1)!.body).toEqual({
      Phone: '5511987650001',
      Id: sentId,
      Body: 'Oi, Maria! Tudo bem?',
    });

    const theirs = (await history(ticket.id))[0]!;
    const reacted = await t.call(agent, 'POST', '/messages/reactionMessage', {
      messageId: theirs.id,
      ticketId: ticket.id,
      reaction: '👍',
    });
    expect(reacted.statusCode, reacted.body).toBe(200);
    expect(sim.callsOf('/chat/react').at(-1)!.body).toEqual({
      Phone: '5511987650001',
      Body: '👍',
      Id: '3A1F2B3C4D5E6F708192',
    });
    // Our own message is reacted to as ours (`me:`), as WhatsApp needs.
    await t.call(agent, 'POST', '/messages/reactionMessage', {
      messageId: ours.id,
      ticketId: ticket.id,
      reaction: '❤️',
    });
    expect(sim.callsOf('/chat/react').at(-1)!.body).toMatchObject({ Id: `me:${sentId}` });

    const deleted = await t.call(agent, 'DELETE', '/messages', { id: ours.id });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(sim.callsOf('/chat/delete').at(-1)!.body).toEqual({ Phone: '5511987650001', Id: sentId });
  });

  it("the customer's edit and revoke reach the stored messages", async () => {
    expect((await deliver('edit')).statusCode).toBe(200);
    const revoke = structuredClone(events.revoke!) as {
      event: { Message: { protocolMessage: { key: { ID: string } } } };
    };
    revoke.event.Message.protocolMessage.key.ID = '3A1F2B3C4D5E6F7081A6';
    expect((await deliver(revoke)).statusCode).toBe(200);
    const [first, lid] = await history(ticket.id);
    expect(first).toMatchObject({ edition: 'Olá, preciso de ajuda com meu pedido 4521' });
    expect(lid).toMatchObject({ body: 'Mensagem pelo LID', isDeleted: true });
  });

  it('LoggedOut shows DISCONNECTED; what the gateway still sends is stored until the user disconnects', async () => {
    expect((await deliver('logged-out')).statusCode).toBe(200);
    expect((await channelNow()).status).toBe('DISCONNECTED');
    // The channel still holds its Wuzapi user (its claim): a late message is this channel's, not lost.
    const late = await deliver('video');
    expect(late.json()).toMatchObject({ ignored: false, received: 1 });
    // The user's disconnect releases it: from then on what arrives is acknowledged and dropped.
    expect((await t.call(admin, 'DELETE', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
    const after = await deliver('text');
    expect(after.json()).toMatchObject({ ignored: true, received: 0 });
  });
});

describe('/meow-qrcode and /meow-setwebhook', () => {
  it('/meow-qrcode/{wabaId} starts the session of that channel and answers its state', async () => {
    sim.users.get(TOKEN)!.connected = false;
    sim.users.get(TOKEN)!.loggedIn = false;
    const calls = sim.callsOf('/session/connect').length;
    const started = await t.call(admin, 'POST', '/meow-qrcode/loja01', { ...channel });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json<ChannelSessionState>()).toMatchObject({ id: channel.id, status: 'qrcode' });
    expect(sim.callsOf('/session/connect')).toHaveLength(calls + 1);
  });

  it('/meow-setwebhook/{wabaId} sets the HMAC key and the webhook again', async () => {
    sim.users.get(TOKEN)!.webhook = '';
    const set = await t.call(admin, 'POST', '/meow-setwebhook/loja01', {});
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ webhook: `https://conversa.example/api/webhooks/meow/${channel.id}` });
    expect(sim.users.get(TOKEN)!.webhook).toBe(`https://conversa.example/api/webhooks/meow/${channel.id}`);
    expect(sim.callsOf('/session/hmac/config').at(-1)!.body).toEqual({ hmac_key: sim.users.get(TOKEN)!.hmacKey });
  });

  it('an unknown instance id is ERR_NO_WAPP_FOUND; an agent may not; a gateway refusal is ERR_CHANNEL_PROVIDER', async () => {
    const unknown = await t.call(admin, 'POST', '/meow-qrcode/nope', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await t.call(agent, 'POST', '/meow-setwebhook/loja01', {})).statusCode).toBe(403);
    sim.failNext('/session/hmac/config', 401, 'unauthorized');
    const refused = await t.call(admin, 'POST', '/meow-setwebhook/loja01', {});
    expect(refused.json()).toMatchObject({ error: 'ERR_CHANNEL_PROVIDER' });
  });
});

describe('Wuzapi: login with a pairing code', () => {
  it('PUT /whatsappsession with a phone number connects and answers the code to type on the phone', async () => {
    sim.addUser('MEOW-PAIRING-TOKEN-0002');
    const created = await t.call(admin, 'POST', '/whatsapp', {
      name: 'Loja Pareamento',
      type: 'meow',
      remotePath: sim.url,
      tokenAPI: 'MEOW-PAIRING-TOKEN-0002',
    });
    const paired = created.json<ChannelDto>();
    const res = await t.call(admin, 'PUT', `/whatsappsession/${paired.id}`, { pairingNumber: '+55 11 91234-5678' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ChannelSessionState>()).toMatchObject({
      status: 'PAIRING',
      pairingCode: 'K7QF-2MXD',
      qrcode: null,
    });
    const asked = sim.calls.filter((c) => c.path === '/session/pairphone').at(-1);
    expect(asked?.body).toEqual({ Phone: '5511912345678' });
  });
});

/**
 * The 24-hour customer-service window (decisions "24-hour customer-service window"): `customerWindow` on the ticket
 * detail of Meta channels only, computed over the contact's tickets on the channel; waba free-form sends refused
 * with 409 ERR_WINDOW_CLOSED (nothing stored) outside it, on `POST /messages/{ticketId}` and the `/wabameta*`
 * routes, unless the tenant flag forceOpenChatWindow is enabled; templates always allowed; Messenger and Instagram
 * never refused, their send job passing `windowOpen` to the adapter. The adapter is the recording test double:
 * nothing here reaches Graph.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto, TicketDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { lookupOf, sendJob, TestAdapter } from '../../../../test/messages-kit.js';
import { setTenantFlags } from '../../../../test/ticket-fixtures.js';
import { windowFrom } from '../../../tickets/index.js';
import { cacheTemplates, HOUR, makeConversation, makeMetaChannel, MINUTE } from '../../../../test/waba-kit.js';

let t: TestApp;
let admin: TestUser;
let adapter: TestAdapter;
let waba: number;

const ago = (ms: number) => new Date(Date.now() - ms);
const detail = async (ticketId: number) => (await t.call(admin, 'GET', `/tickets/${ticketId}`)).json<TicketDto>();
const messageCount = async (ticketId: number) =>
  Number(
    (await t.database.executeSql('select count(*)::int as n from messages where ticket_id = $1', [ticketId])).rows[0]!
      .n,
  );
const text = (ticketId: number, body = 'Olá!') => t.call(admin, 'POST', `/messages/${ticketId}`, { body });
/** Runs the queued sends; answers what the adapter was given. */
async function flush() {
  adapter.sent.length = 0;
  await t.jobs.runPending(sendJob(t));
  return [...adapter.sent];
}

beforeAll(async () => {
  adapter = new TestAdapter();
  t = await createTestApp({}, { adapters: lookupOf(adapter) });
  ({ admin } = await t.createStaff());
  waba = await makeMetaChannel(t, 1, { wabaId: '100200300', tokenAPI: 'T' });
});
afterAll(async () => t.close());

describe('windowFrom', () => {
  it('is open until 24 h after the last message, closed after, and closed with no until when never written', () => {
    const now = Date.parse('2026-01-02T12:00:00.000Z');
    expect(windowFrom(new Date(now - 24 * HOUR + MINUTE), now)).toEqual({
      open: true,
      until: '2026-01-02T12:01:00.000Z',
    });
    expect(windowFrom(new Date(now - 24 * HOUR), now).open).toBe(false);
    expect(windowFrom(null, now)).toEqual({ open: false, until: null });
  });
});

describe('the window on the ticket and on waba sends', () => {
  it('open: the customer wrote 23h59m ago; the detail says until when, and free-form sends go out', async () => {
    const last = ago(23 * HOUR + 59 * MINUTE);
    const { ticketId } = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: last });
    expect((await detail(ticketId)).customerWindow).toEqual({
      open: true,
      until: new Date(last.getTime() + 24 * HOUR).toISOString(),
    });
    expect((await text(ticketId)).statusCode).toBe(200);
    const viaWaba = await t.call(admin, 'POST', '/wabametaText', { ticketId, body: 'Pelo WABA', tokenApi: 'x' });
    expect(viaWaba.statusCode, viaWaba.body).toBe(200);
    expect(await messageCount(ticketId)).toBe(2);
    // The send job tells the adapter the window is open.
    expect((await flush()).map((m) => m.windowOpen)).toEqual([true, true]);
  });

  it('closed: 24h01m ago; POST /messages and every free-form /wabameta* send are 409 and store nothing', async () => {
    const { ticketId } = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: ago(24 * HOUR + MINUTE) });
    expect((await detail(ticketId)).customerWindow).toMatchObject({ open: false, until: expect.any(String) });
    const refused = [
      await text(ticketId),
      await t.call(admin, 'POST', '/wabametaText', { ticketId, body: 'x' }),
      await t.call(admin, 'POST', '/wabametaButton', { ticketId, body: 'x', buttons: [{ title: 'Sim' }] }),
      await t.call(admin, 'POST', '/wabametaList', {
        ticketId,
        body: 'x',
        button: 'Ver',
        sections: [{ title: 'A', rows: [{ title: 'Um' }] }],
      }),
      await t.call(admin, 'POST', '/wabametaFileUrl', { ticketId, url: 'https://cdn.example/a.png' }),
      await t.call(admin, 'POST', '/wabametaSticker', { ticketId, url: 'https://cdn.example/a.webp' }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ error: 'ERR_WINDOW_CLOSED' });
    }
    // A file upload is refused before its bytes are stored (the ticket is named in the query).
    const boundary = '----waba-window';
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/wabametaFile?ticketId=${ticketId}`,
      headers: { ...admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="ticketId"\r\n\r\n${ticketId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n` +
        `png-bytes\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode, upload.body).toBe(409);
    expect(await messageCount(ticketId)).toBe(0);
  });

  it('never wrote: no until, closed, refused', async () => {
    const { ticketId } = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: null });
    expect((await detail(ticketId)).customerWindow).toEqual({ open: false, until: null });
    expect((await text(ticketId)).json()).toMatchObject({ error: 'ERR_WINDOW_CLOSED' });
  });

  it("carries over from the contact's earlier closed ticket on the same channel, not from another channel", async () => {
    const last = ago(2 * HOUR);
    const first = await makeConversation(t, 1, { channelId: waba, status: 'closed', lastReceivedAt: last });
    const { ticketId } = await makeConversation(t, 1, { channelId: waba, contactId: first.contactId });
    expect((await detail(ticketId)).customerWindow).toEqual({
      open: true,
      until: new Date(last.getTime() + 24 * HOUR).toISOString(),
    });
    expect((await text(ticketId)).statusCode).toBe(200);
    expect((await flush()).map((m) => m.windowOpen)).toEqual([true]);

    // The same customer wrote recently on another waba channel: that is another conversation.
    const other = await makeMetaChannel(t, 1, { wabaId: '100200399', tokenAPI: 'T' });
    const elsewhere = await makeConversation(t, 1, { channelId: other, lastReceivedAt: ago(HOUR) });
    const here = await makeConversation(t, 1, { channelId: waba, contactId: elsewhere.contactId });
    expect((await detail(here.ticketId)).customerWindow).toEqual({ open: false, until: null });
  });

  it('templates are allowed when the window is closed', async () => {
    const { ticketId } = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: ago(3 * 24 * HOUR) });
    await cacheTemplates(t, 1, waba, [
      {
        name: 'retomar',
        language: 'pt_BR',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Podemos ajudar?' }],
      },
    ]);
    const res = await t.call(admin, 'POST', '/wabametaTemplateComponents', {
      ticketId,
      templateName: 'retomar',
      language: 'pt_BR',
      components: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: MessageDto }>().data).toMatchObject({ mediaType: 'templates', body: 'Podemos ajudar?' });
    const [sent] = await flush();
    expect(sent).toMatchObject({
      windowOpen: false,
      payload: { kind: 'template', name: 'retomar', language: 'pt_BR', components: [] },
    });
  });

  it('a forward into a closed waba conversation is 409 and stores nothing; into an open one it is queued', async () => {
    const source = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: ago(HOUR) });
    const { rows } = await t.database.executeSql(
      `insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body, message_id, ack, status)
       values (1, $1, $2, $3, false, 'Encaminhe isto', 'wamid.fw1', 0, 'received') returning id`,
      [source.ticketId, source.contactId, waba],
    );
    const closed = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: ago(25 * HOUR) });
    const forward = (contact: number) =>
      t.call(admin, 'POST', '/forward-messages', { messages: [rows[0]!.id], contact });
    const refused = await forward(closed.contactId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'ERR_WINDOW_CLOSED' });
    expect(await messageCount(closed.ticketId)).toBe(0);
    const open = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: ago(HOUR) });
    expect((await forward(open.contactId)).statusCode).toBe(200);
    expect(await messageCount(open.ticketId)).toBe(1);
    expect((await flush()).map((m) => m.body)).toEqual(['Encaminhe isto']);
  });

  it('forceOpenChatWindow enabled: a free-form send outside the window is stored and tried', async () => {
    const { ticketId } = await makeConversation(t, 1, { channelId: waba, lastReceivedAt: ago(30 * HOUR) });
    await setTenantFlags(t, 1, { forceOpenChatWindow: 'enabled' });
    try {
      expect((await text(ticketId)).statusCode).toBe(200);
      expect((await t.call(admin, 'POST', '/wabametaText', { ticketId, body: 'x' })).statusCode).toBe(200);
      expect((await flush()).map((m) => m.windowOpen)).toEqual([false, false]);
    } finally {
      await setTenantFlags(t, 1, {});
    }
  });
});

describe('Messenger and Instagram', () => {
  for (const type of ['messenger', 'instagram'] as const) {
    it(`${type}: never refused; the send job passes windowOpen=false when closed, true when open`, async () => {
      const channelId = await makeMetaChannel(t, 1, { type, wabaId: `${type}-page`, tokenAPI: 'T' });
      const closed = await makeConversation(t, 1, { channelId, channelType: type, lastReceivedAt: ago(25 * HOUR) });
      const open = await makeConversation(t, 1, { channelId, channelType: type, lastReceivedAt: ago(HOUR) });
      expect((await detail(closed.ticketId)).customerWindow).toMatchObject({ open: false });
      expect((await text(closed.ticketId, 'fechada')).statusCode).toBe(200);
      expect((await text(open.ticketId, 'aberta')).statusCode).toBe(200);
      const byBody = Object.fromEntries((await flush()).map((m) => [m.body, m.windowOpen]));
      expect(byBody).toEqual({ fechada: false, aberta: true });
    });
  }

  it('other channel types have no window: absent on the detail, undefined for the adapter', async () => {
    const channelId = await makeMetaChannel(t, 1, { type: 'telegram', tokenTelegram: '1:a' });
    const { ticketId } = await makeConversation(t, 1, { channelId, channelType: 'telegram' });
    await t.database.executeSql(
      "update contacts set telegram_id = '777' where id = (select contact_id from tickets where id = $1)",
      [ticketId],
    );
    expect(await detail(ticketId)).not.toHaveProperty('customerWindow');
    expect((await text(ticketId, 'telegram')).statusCode).toBe(200);
    const sent = await flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.windowOpen).toBeUndefined();
  });
});

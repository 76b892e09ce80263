/**
 * Crash safety of the outbound engine (issue 25): the built server on PostgreSQL runs a campaign over Telegram and is
 * killed with SIGKILL mid-campaign, then started again on the same database. Every recipient is processed exactly
 * once (one stored message each, none twice), the campaign finishes, and every recipient's text reaches the provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../src/modules/channels/providers/telegram/telegram.simulator.js';
import { createDatabase, query, type ThrowawayDatabase } from './support/postgres.js';
import { sleep } from './support/ports.js';
import { api, connectTelegramChannel, loginSuperadmin, serverProcess, type ServerProcess } from './support/server.js';
import { deliverUntilAcknowledged, textUpdate, type Webhook } from './support/telegram.js';

const TOKEN = '7000000124:AAH-reliability_campaign_bot_token_01';
const RECIPIENTS = 24;

let sim: TelegramSimulator;
let db: ThrowawayDatabase;
let server: ServerProcess;
let auth: { authorization: string; userId: number };
let channelId: number;
let webhook: Webhook;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000124, username: 'campaign_bot' });
  db = await createDatabase('conversa_rel_campaign');
  server = await serverProcess({ DATABASE_URL: db.url, TELEGRAM_API_ROOT: sim.url });
  await server.start();
  auth = await loginSuperadmin(server.baseUrl);
  ({ channelId, webhook } = await connectTelegramChannel(server.baseUrl, auth, sim, { name: 'Camp', token: TOKEN }));
});

afterAll(async () => {
  await server?.stop();
  await db?.drop();
  await sim?.close();
});

describe('kill -9 mid-campaign', () => {
  it('sends every recipient exactly once and finishes', async () => {
    // The recipients write first (Telegram bots cannot start a chat), then their tickets are closed.
    const chat = (k: number) => 9_300_000 + k;
    for (let k = 0; k < RECIPIENTS; k++) await deliverUntilAcknowledged(webhook, textUpdate(k + 1, chat(k)));
    const contacts = await query<{ id: number }>(
      db.url,
      `select id from contacts where telegram_id is not null order by id`,
    );
    expect(contacts).toHaveLength(RECIPIENTS);
    await query(db.url, `update tickets set status = 'closed' where channel_id = $1`, [channelId]);

    const start = new Date(Date.now() + 3000).toISOString();
    const created = await api<{ id: number }>(server.baseUrl, auth, 'POST', '/campaigns', {
      name: 'Crash',
      start,
      sessionId: channelId,
      delay: 1,
      message1: 'Oferta para {{firstName}}',
      message2: 'Novidade para {{name}}',
    });
    expect(created.status).toBe(200);
    const id = created.json.id;
    const added = await api(server.baseUrl, auth, 'POST', `/campaigns/contacts/${id}`, contacts);
    expect(added).toMatchObject({ status: 200, json: { added: RECIPIENTS } });
    expect((await api(server.baseUrl, auth, 'POST', `/campaigns/start/${id}`, { campaignId: id })).status).toBe(200);

    const campaignCalls = () =>
      sim.callsOf('sendMessage').filter((call) => /^(Oferta|Novidade) para /.test(String(call.params.text)));
    const sent = () => campaignCalls().length;
    while (sent() < RECIPIENTS / 3) await sleep(50);
    await server.kill();
    const atKill = sent();
    await server.start();
    expect(atKill).toBeLessThan(RECIPIENTS);

    // A tick cut by the kill comes back through pg-boss's expiry (or the sweep), then the lane goes on.
    const deadline = Date.now() + 300_000;
    const status = async () =>
      (await query<{ status: string }>(db.url, `select status from campaigns where id = $1`, [id]))[0]!.status;
    const unsent = async () =>
      (
        await query<{ n: number }>(
          db.url,
          `select count(*)::int as n from messages m join campaign_contacts cc on cc.message_id = m.id
            where cc.campaign_id = $1 and m.message_id is null`,
          [id],
        )
      )[0]!.n;
    while (((await status()) !== 'finished' || (await unsent()) > 0) && Date.now() < deadline) await sleep(1000);
    expect(await status()).toBe('finished');

    const rows = await query<{ contact_id: number; processed: boolean; messages: number }>(
      db.url,
      `select cc.contact_id, cc.processed,
              (select count(*)::int from messages m where m.id_front = 'campaign-' || cc.campaign_id || '-' || cc.id)
                as messages
         from campaign_contacts cc where cc.campaign_id = $1 order by cc.contact_id`,
      [id],
    );
    expect(rows).toHaveLength(RECIPIENTS);
    expect(rows.filter((row) => !row.processed || row.messages !== 1)).toEqual([]);
    const outgoing = await query<{ n: number }>(
      db.url,
      `select count(*)::int as n from messages where channel_id = $1 and from_me and send_type = 'campaign'`,
      [channelId],
    );
    expect(outgoing[0]!.n).toBe(RECIPIENTS);
    // Each recipient's text reached Telegram (at least once: a send cut after Telegram took it is sent again).
    const texts = new Set(campaignCalls().map((call) => String(call.params.chat_id)));
    for (let k = 0; k < RECIPIENTS; k++) expect(texts, String(chat(k))).toContain(String(chat(k)));
    console.info(`campaign: ${sent()} sendMessage calls for ${RECIPIENTS}, ${atKill} at the kill`);
  });
});

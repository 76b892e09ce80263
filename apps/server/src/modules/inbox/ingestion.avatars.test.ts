/**
 * Where ingestion asks for contacts' pictures: only on session channels (Baileys, whatsapp-web.js), only for contacts
 * never asked or last asked more than a day ago, one job each however many messages (alone or in a batch), in the
 * session's queue; nothing for other channels, blocked contacts, or contacts asked today.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { createTelegramChannel, ingestionFor, textEvent } from '../../test/messages-kit.js';
import type { ChannelCredentials, InboundParty } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';

let t: TestApp;
let tenant: number;
let baileys: ChannelCredentials;
let telegram: ChannelCredentials;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  baileys = await createTelegramChannel(t, tenant, { name: 'Zap', type: 'baileys', tokenTelegram: null });
  telegram = await createTelegramChannel(t, tenant);
  // The session's queue exists once its session started (sessions/session-jobs.ts).
  await t.jobs.ensureQueue(`session.${baileys.id}`);
});
afterAll(async () => t.close());

const person = (number: string): InboundParty => ({
  chatId: number,
  isGroup: false,
  name: `Cliente ${number.slice(-4)}`,
  number,
  idField: 'number',
});
const from = (number: string, body = 'oi') => textEvent(number, body, { party: person(number) });

/** The picture jobs queued for the session, by contact number. */
async function askedFor(): Promise<string[]> {
  const rows = await queryRows<{ contact_id: number }>(
    t.platform.db,
    sql`select (data->'data'->>'contactId')::int as contact_id from pgboss.job
        where name = ${`session.${baileys.id}`} and data->>'kind' = 'contacts.avatar'`,
  );
  const ids = rows.map((r) => r.contact_id);
  const numbers = await withTenant(t.platform.db, systemContext(tenant), (tx) =>
    tx.select({ id: contacts.id, number: contacts.number }).from(contacts),
  );
  return ids.map((id) => numbers.find((c) => c.id === id)?.number ?? `?${id}`).sort();
}

describe('picture jobs from ingestion', () => {
  it('a new contact of a session channel gets one job, however many messages it writes', async () => {
    const ingestion = ingestionFor(t);
    await ingestion.ingest(baileys, [from('5511900000001'), from('5511900000001', 'de novo')]);
    await ingestion.ingest(baileys, [from('5511900000001', 'e mais')]);
    expect(await askedFor()).toEqual(['5511900000001']);
  });

  it('the batch path: each new contact of a batch once; known ones asked today and blocked ones not', async () => {
    const lane = ingestionFor(t, { lanesPerChannel: 1 });
    await lane.ingest(baileys, [from('5511900000002')]);
    await lane.ingest(baileys, [from('5511900000003')]);
    await withTenant(t.platform.db, systemContext(tenant), (tx) =>
      tx
        .update(contacts)
        .set({ blocked: true, avatarCheckedAt: sql`now() - interval '2 days'` })
        .where(eq(contacts.number, '5511900000003')),
    );
    const before = lane.stats().batches;
    const burst = ['5511900000004', '5511900000002', '5511900000005', '5511900000003', '5511900000004'];
    await Promise.all([from('5511900000006'), ...burst.map((n) => from(n))].map((e) => lane.ingest(baileys, [e])));
    expect(lane.stats().batches).toBe(before + 1);
    expect(await askedFor()).toEqual(
      ['5511900000001', '5511900000002', '5511900000003', '5511900000004', '5511900000005', '5511900000006'].sort(),
    );
  });

  it('a contact last asked more than a day ago is asked again; another channel type never', async () => {
    const ingestion = ingestionFor(t);
    await withTenant(t.platform.db, systemContext(tenant), (tx) =>
      tx
        .update(contacts)
        .set({ avatarCheckedAt: sql`now() - interval '25 hours'` })
        .where(eq(contacts.number, '5511900000001')),
    );
    await ingestion.ingest(baileys, [from('5511900000001', 'amanhã')]);
    // A number-keyed contact on a channel without a session (its picture is not ours to ask for).
    await ingestion.ingest(telegram, [from('5511900000099', 'outro canal')]);
    const asked = await askedFor();
    expect(asked.filter((n) => n === '5511900000001')).toHaveLength(2);
    expect(asked).toHaveLength(7);
    // Not even claimed: no job in any queue, and it stays never asked.
    const anywhere = await queryRows<{ n: number }>(
      t.platform.db,
      sql`select count(*)::int as n from pgboss.job where data->>'kind' = 'contacts.avatar'`,
    );
    expect(anywhere[0]!.n).toBe(7);
    const [other] = await withTenant(t.platform.db, systemContext(tenant), (tx) =>
      tx.select().from(contacts).where(eq(contacts.number, '5511900000099')),
    );
    expect(other!.avatarCheckedAt).toBeNull();
  });
});

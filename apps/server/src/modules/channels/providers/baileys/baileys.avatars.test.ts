/**
 * Customers' pictures on a Baileys channel through the app (PGlite, the fake socket and the simulator): a customer's
 * first message -> the picture job on the session's owner -> the contact's profilePicUrl is our signed URL -> GET
 * serves the bytes with their type; forged and other-tenant tokens 404; no picture -> null and not asked again within
 * a day; too large, not an image, or past the media quota -> nothing stored; a changed picture gets a new URL,
 * announced as a contact update, and the old URL stops working.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, ContactDto, TicketDto, TicketListResponse } from '@conversa/shared';
import { queryRows } from '../../../../platform/db/client.js';
import { systemContext, withSystem, withTenant } from '../../../../platform/db/tenancy.js';
import { eventually } from '../../../../test/eventually.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { AVATAR_MAX_BYTES, AVATAR_PATH, createAvatarLinks } from '../../../contacts/index.js';
import { contacts } from '../../../contacts/contacts.tables.js';
import { readMediaUsage } from '../../../tenants/index.js';
import { tenants } from '../../../tenants/tenants.tables.js';
import { startBaileysSimulator, type BaileysSimulator } from './baileys.simulator.js';

let t: TestApp;
let sim: BaileysSimulator;
let admin: TestUser;
let channel: ChannelDto;
let publicUrl: string;

/** A JPEG as far as the type checks go: its signature, then filler bytes that make each picture distinct. */
const jpeg = (fill: string, size = 64) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size, fill)]);

beforeAll(async () => {
  sim = await startBaileysSimulator();
  // The app's own Baileys driver over the fake socket (the test hooks), whose simulator is also the pictures' CDN.
  const fakeSocket = fileURLToPath(new URL('./baileys.fake-socket.ts', import.meta.url));
  t = await createTestApp({ BAILEYS_SOCKET_MODULE: fakeSocket, BAILEYS_SIMULATOR_URL: sim.url });
  await t.startBackground();
  publicUrl = t.platform.config.publicUrl;
  ({ admin } = await t.createStaff());
  channel = (await t.call(admin, 'POST', '/whatsapp', { name: 'WhatsApp Fotos', type: 'baileys' })).json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  const status = async () => (await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json<ChannelDto>();
  await eventually(status, (c) => c.status === 'qrcode', 'the QR');
  sim.scan(channel.id, { number: '5561999990000', name: 'Loja' });
  await eventually(status, (c) => c.status === 'CONNECTED', 'CONNECTED');
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

let seq = 0;
function customerWrites(number: string): string {
  const id = `AVATAR-${++seq}`;
  sim.emit(channel.id, 'messages.upsert', {
    type: 'notify',
    messages: [
      {
        key: { remoteJid: `${number}@s.whatsapp.net`, fromMe: false, id },
        message: { conversation: `oi ${seq}` },
        messageTimestamp: Math.floor(Date.now() / 1000),
        pushName: `Cliente ${number.slice(-4)}`,
      },
    ],
  });
  return id;
}

const contactRow = async (number: string) =>
  (
    await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.select().from(contacts).where(eq(contacts.number, number)),
    )
  )[0];

const pictureAsks = (number: string) =>
  sim.callsOf('profilePictureUrl', channel.id).filter((c) => c.args[0] === `${number}@s.whatsapp.net`).length;

/** The picture jobs of a contact that finished (completed or failed for good). */
async function finishedJobs(contactId: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    t.platform.db,
    sql`select count(*)::int as n from pgboss.job where name = ${`session.${channel.id}`}
        and data->>'kind' = 'contacts.avatar' and (data->'data'->>'contactId')::int = ${contactId}
        and state in ('completed', 'failed')`,
  );
  return rows[0]!.n;
}

/** The customer writes (a new contact) and its picture job runs to its end. */
async function firstMessage(number: string) {
  customerWrites(number);
  const row = await eventually(
    () => contactRow(number),
    (r) => r !== undefined,
    `the contact ${number}`,
  );
  await eventually(
    () => finishedJobs(row!.id),
    (n) => n === 1,
    `the picture job of ${number}`,
  );
  return (await contactRow(number))!;
}

const storedAvatars = () => {
  const dir = path.join(t.dataDir, 'media', '1');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('avatar-')) : [];
};

const get = (url: string) => t.app.inject({ method: 'GET', url: url.slice(publicUrl.length) });

describe('contact pictures on a Baileys channel', () => {
  const CARLA = '5511987650001';
  let carlaUrl: string;

  it("a customer's first message stores the picture; profilePicUrl is our URL, served with its type", async () => {
    const picture = jpeg('a');
    sim.pictures.set(CARLA, { data: picture, mimetype: 'image/jpeg' });
    const row = await firstMessage(CARLA);
    expect(pictureAsks(CARLA)).toBe(1);
    expect(row.profilePicUrl?.startsWith(`${publicUrl}${AVATAR_PATH}`), String(row.profilePicUrl)).toBe(true);
    carlaUrl = row.profilePicUrl!;

    // Every DTO carries it: the ticket's contact, the contact itself.
    const list = (await t.call(admin, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    const ticket = list.tickets.find((k) => k.contact?.number === CARLA) as TicketDto;
    expect(ticket.contact?.profilePicUrl).toBe(carlaUrl);
    const contact = (await t.call(admin, 'GET', `/contacts/${row.id}`)).json<ContactDto>();
    expect(contact.profilePicUrl).toBe(carlaUrl);

    // Public (no token): the bytes, their type, cached for good.
    const served = await get(carlaUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.rawPayload.equals(picture)).toBe(true);

    // The web app's CSP lets an <img> load it (our own origin), and still no CDN link.
    const csp = String((await t.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    const imgSrc = csp
      .split(';')
      .find((d) => d.trim().startsWith('img-src '))!
      .trim()
      .split(/\s+/);
    expect(imgSrc).toContain(new URL(carlaUrl).origin);
    expect(imgSrc).not.toContain('https:');
  });

  it('a forged, tampered or other-tenant token is a 404', async () => {
    const token = carlaUrl.slice(`${publicUrl}${AVATAR_PATH}`.length);
    const [body, signature] = token.split('.') as [string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await get(`${publicUrl}${AVATAR_PATH}${body}.${flipped}`)).statusCode).toBe(404);
    expect((await get(`${publicUrl}${AVATAR_PATH}${body}`)).statusCode).toBe(404);

    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { t: number; c: number; k: string };
    const links = createAvatarLinks(t.platform.secrets.jwtSecret, publicUrl);
    const otherTenant = await t.createTenant();
    // Signed by us, but naming tenant 1's picture under another tenant: refused.
    expect((await get(links.url({ tenantId: otherTenant, contactId: claims.c, key: claims.k }))).statusCode).toBe(404);
    // Another tenant's key and id: its RLS look-up finds no such contact.
    const elsewhere = claims.k.replace(/^1\//, `${otherTenant}/`);
    expect((await get(links.url({ tenantId: otherTenant, contactId: claims.c, key: elsewhere }))).statusCode).toBe(404);
    // A signed key the contact does not show.
    const stale = claims.k.replace(/-[0-9a-f]{32}\./, `-${'0'.repeat(32)}.`);
    expect((await get(links.url({ tenantId: 1, contactId: claims.c, key: stale }))).statusCode).toBe(404);
    // Carla's stored picture signed for another contact of the tenant, which does not show it.
    const other = (
      await t.call(admin, 'POST', '/contacts', { name: 'Outro', number: '5511987659999' })
    ).json<ContactDto>();
    expect((await get(links.url({ tenantId: 1, contactId: other.id, key: claims.k }))).statusCode).toBe(404);
    // The right one still works.
    expect((await get(carlaUrl)).statusCode).toBe(200);
  });

  it('a changed picture gets a new URL, announced as a contact update; the old URL stops working', async () => {
    const announced: ContactDto[] = [];
    t.platform.events.subscribe('contacts.updated', ({ contact }) => void announced.push(contact));
    const row = (await contactRow(CARLA))!;
    // The same picture a day later: asked again, nothing changes.
    await ageCheck(CARLA);
    customerWrites(CARLA);
    await eventually(
      () => finishedJobs(row.id),
      (n) => n === 2,
      'the second picture job',
    );
    expect(pictureAsks(CARLA)).toBe(2);
    expect((await contactRow(CARLA))!.profilePicUrl).toBe(carlaUrl);
    expect(announced).toEqual([]);

    const next = jpeg('b', 80);
    sim.pictures.set(CARLA, { data: next, mimetype: 'image/jpeg' });
    await ageCheck(CARLA);
    customerWrites(CARLA);
    await eventually(
      () => finishedJobs(row.id),
      (n) => n === 3,
      'the third picture job',
    );
    const changed = (await contactRow(CARLA))!;
    expect(changed.profilePicUrl).not.toBe(carlaUrl);
    expect(announced.map((c) => [c.id, c.profilePicUrl])).toEqual([[row.id, changed.profilePicUrl]]);
    const served = await get(changed.profilePicUrl!);
    expect(served.rawPayload.equals(next)).toBe(true);
    expect((await get(carlaUrl)).statusCode).toBe(404);
    // The replaced picture's bytes are gone: one picture of Carla's stored.
    expect(storedAvatars().filter((f) => f.startsWith(`avatar-${row.id}-`))).toHaveLength(1);

    // A contact update (a new name, WhatsApp's picture notice) keeps our picture.
    sim.emit(channel.id, 'contacts.update', [
      { id: `${CARLA}@s.whatsapp.net`, notify: 'Carla Nova', imgUrl: 'changed' },
    ]);
    const renamed = await eventually(
      () => contactRow(CARLA),
      (r) => r?.name === 'Carla Nova',
      'the new name',
    );
    expect(renamed!.profilePicUrl).toBe(changed.profilePicUrl);

    // She hides it (or removes it): our copy goes too, announced; its URL stops working.
    sim.pictures.set(CARLA, 'hidden');
    await ageCheck(CARLA);
    customerWrites(CARLA);
    await eventually(
      () => finishedJobs(row.id),
      (n) => n === 4,
      'the fourth picture job',
    );
    const hidden = (await contactRow(CARLA))!;
    expect([hidden.profilePicUrl, hidden.avatarKey]).toEqual([null, null]);
    expect(announced.at(-1)).toMatchObject({ id: row.id, profilePicUrl: null });
    expect((await get(changed.profilePicUrl!)).statusCode).toBe(404);
    expect(storedAvatars().filter((f) => f.startsWith(`avatar-${row.id}-`))).toHaveLength(0);
  });

  it('no picture (or hidden): nothing stored, and not asked again within a day', async () => {
    const NOPIC = '5511987650002';
    sim.pictures.set(NOPIC, 'hidden');
    const row = await firstMessage(NOPIC);
    expect(pictureAsks(NOPIC)).toBe(1);
    expect(row.profilePicUrl).toBeNull();
    expect(row.avatarKey).toBeNull();
    expect(row.avatarCheckedAt).not.toBeNull();

    // More messages the same day: no job, no question.
    customerWrites(NOPIC);
    const last = customerWrites(NOPIC);
    await eventually(
      () =>
        queryRows<{ n: number }>(
          t.platform.db,
          sql`select count(*)::int as n from messages where message_id = ${last}`,
        ),
      (rows) => rows[0]!.n === 1,
      'the last message stored',
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(pictureAsks(NOPIC)).toBe(1);
    expect(await finishedJobs(row.id)).toBe(1);

    // A day later it is asked again (and now there is one).
    sim.pictures.set(NOPIC, { data: jpeg('c'), mimetype: 'image/jpeg' });
    await ageCheck(NOPIC);
    customerWrites(NOPIC);
    await eventually(
      () => finishedJobs(row.id),
      (n) => n === 2,
      'the next day’s job',
    );
    expect(pictureAsks(NOPIC)).toBe(2);
    expect((await contactRow(NOPIC))!.profilePicUrl?.startsWith(`${publicUrl}${AVATAR_PATH}`)).toBe(true);
  });

  it('a picture too large or that is no image is refused: nothing stored', async () => {
    const BIG = '5511987650003';
    const HTML = '5511987650004';
    const FAKE = '5511987650005';
    sim.pictures.set(BIG, { data: jpeg('d', AVATAR_MAX_BYTES + 10), mimetype: 'image/jpeg' });
    sim.pictures.set(HTML, { data: Buffer.from('<script>alert(1)</script>'), mimetype: 'text/html' });
    // Declared an image, but the bytes are not one of the types served.
    sim.pictures.set(FAKE, { data: Buffer.from('<svg onload="alert(1)"/>'), mimetype: 'image/svg+xml' });
    const before = storedAvatars().length;
    for (const number of [BIG, HTML, FAKE]) {
      const row = await firstMessage(number);
      expect(pictureAsks(number)).toBe(1);
      expect([row.profilePicUrl, row.avatarKey]).toEqual([null, null]);
    }
    expect(storedAvatars()).toHaveLength(before);
  });

  it("the tenant's media quota: a picture past it is not stored", async () => {
    const used = await withTenant(t.platform.db, systemContext(1), (tx) => readMediaUsage(tx, 1));
    await withSystem(t.platform.db, 'tenants.superadmin', (tx) =>
      tx
        .update(tenants)
        .set({ mediaQuotaBytes: used + 100 })
        .where(eq(tenants.id, 1)),
    );
    const FULL = '5511987650006';
    sim.pictures.set(FULL, { data: jpeg('e', 500), mimetype: 'image/jpeg' });
    const before = storedAvatars().length;
    const row = await firstMessage(FULL);
    expect(pictureAsks(FULL)).toBe(1);
    expect(row.profilePicUrl).toBeNull();
    expect(storedAvatars()).toHaveLength(before);
    expect(await withTenant(t.platform.db, systemContext(1), (tx) => readMediaUsage(tx, 1))).toBe(used);
    await withSystem(t.platform.db, 'tenants.superadmin', (tx) =>
      tx.update(tenants).set({ mediaQuotaBytes: null }).where(eq(tenants.id, 1)),
    );
  });
});

/** The contact's picture was last asked for two days ago. */
async function ageCheck(number: string) {
  await withTenant(t.platform.db, systemContext(1), (tx) =>
    tx
      .update(contacts)
      .set({ avatarCheckedAt: sql`now() - interval '2 days'` })
      .where(and(eq(contacts.tenantId, 1), eq(contacts.number, number))),
  );
}

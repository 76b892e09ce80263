/**
 * Tenant isolation: an admin of another tenant reaches no contact of tenant 1 through any route with an id, and
 * changes nothing. Realtime: `{T}:contactList` events reach the own tenant's sockets only.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { tags } from './contacts.tables.js';

let t: TestApp;
let owner: TestUser;
let intruder: TestUser;
let victim: ContactDto;
let url: string;
const sockets: Socket[] = [];

const call: TestApp['call'] = (...args) => t.call(...args);

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  owner = await t.createUser({ tenantId: 1, profile: 'admin', name: 'Owner' });
  intruder = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
  const [tag] = await withTenant(t.platform.db, systemContext(1), (tx) =>
    tx.insert(tags).values({ tenantId: 1, tag: 'Segredo' }).returning(),
  );
  const res = await call(owner, 'POST', '/contacts', {
    name: 'Vítima',
    number: '5511912345678',
    tags: [tag!.id],
    wallets: [owner.id],
  });
  victim = res.json<ContactDto>();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

describe('tenant isolation of the contact routes', () => {
  it('answers 404 ERR_NO_CONTACT_FOUND for every route with a tenant-1 contact id, and changes nothing', async () => {
    const own = (
      await call(intruder, 'POST', '/contacts', { name: 'Own', number: '5511912345678' })
    ).json<ContactDto>();
    expect(own).toMatchObject({ number: '5511912345678' }); // numbers are unique per tenant, not globally
    const attempts = [
      call(intruder, 'GET', `/contacts/${victim.id}`),
      call(intruder, 'PUT', `/contacts/${victim.id}`, { name: 'Owned', blocked: true }),
      call(intruder, 'DELETE', `/contacts/${victim.id}`),
      call(intruder, 'PUT', `/contact-tags/${victim.id}`, { tags: [] }),
      call(intruder, 'PUT', `/contact-wallet/${victim.id}`, { wallets: [] }),
      call(intruder, 'POST', '/contacts/merge', { targetId: victim.id, sourceIds: [own.id] }),
      call(intruder, 'POST', '/contacts/merge', { targetId: own.id, sourceIds: [victim.id] }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    }
    const after = await call(owner, 'GET', `/contacts/${victim.id}`);
    expect(after.json()).toEqual(victim);
    expect((await call(intruder, 'GET', `/contacts/${own.id}`)).json()).toMatchObject({ name: 'Own', tags: [] });
  });

  it('lists, searches and finds duplicates only within the own tenant', async () => {
    const list = (await call(intruder, 'GET', '/contacts?searchParam=vitima')).json<{ contacts: unknown[] }>();
    expect(list.contacts).toEqual([]);
    const all = (await call(intruder, 'GET', '/contacts')).json<{ contacts: ContactDto[] }>();
    expect(all.contacts.map((c) => c.id)).not.toContain(victim.id);
    await call(intruder, 'POST', '/contacts', { name: 'Own 8', number: '551112345678' });
    const dupes = (await call(intruder, 'GET', '/contacts/duplicates')).json<{
      groups: { contacts: ContactDto[] }[];
    }>();
    expect(dupes.groups.flatMap((g) => g.contacts.map((c) => c.id))).not.toContain(victim.id);
  });
});

describe('contactList events', () => {
  const connect = async (user: TestUser) => {
    const socket = io(url, { auth: { token: user.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const seen: { event: string; payload: { type: string; payload: { id: number } } }[] = [];
    socket.onAny((event: string, payload: (typeof seen)[number]['payload']) => seen.push({ event, payload }));
    return seen;
  };
  const until = async (check: () => boolean) => {
    const end = Date.now() + 5000;
    while (!check()) {
      if (Date.now() > end) throw new Error('event not received');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('tells the own tenant about creates, updates, merges and deletes, and nobody else', async () => {
    const agent = await t.createUser({ tenantId: 1 });
    const ownSeen = await connect(agent);
    const otherSeen = await connect(intruder);

    const created = (
      await call(owner, 'POST', '/contacts', { name: 'Evento', number: '5511912340099' })
    ).json<ContactDto>();
    const source = (
      await call(owner, 'POST', '/contacts', { name: 'Fonte', number: '551112340099' })
    ).json<ContactDto>();
    await call(owner, 'PUT', `/contacts/${created.id}`, { blocked: true });
    await call(owner, 'POST', '/contacts/merge', { targetId: created.id, sourceIds: [source.id] });
    await call(owner, 'DELETE', `/contacts/${created.id}`);
    const list = () => ownSeen.filter((e) => e.event === '1:contactList');
    await until(() => list().length === 6);
    expect(list().map((e) => [e.payload.type, e.payload.payload.id])).toEqual([
      ['contact:create', created.id],
      ['contact:create', source.id],
      ['contact:update', created.id],
      ['contact:update', created.id],
      ['contact:delete', source.id],
      ['contact:delete', created.id],
    ]);
    expect(list()[2]!.payload.payload).toMatchObject({ blocked: true, name: 'Evento', tags: [], wallets: [] });
    expect(list()[4]!.payload).toEqual({ type: 'contact:delete', payload: { id: source.id } });
    await new Promise((r) => setTimeout(r, 200));
    expect(otherSeen).toEqual([]);
  });
});

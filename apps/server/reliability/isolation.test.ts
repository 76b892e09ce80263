/// <reference types="vite/client" />
/**
 * Tenant isolation over the whole route table. The app's own list of routes (BuiltApp.routes, collected by an
 * onRoute hook) is walked: every route must have a case in ROUTE_CASES below or an explicit, justified exemption,
 * so a new route without an isolation case fails this suite. An admin of tenant 2 calls each route with tenant-1
 * ids: tenant-owned resources answer 404, lists show nothing of tenant 1, superadmin-only routes answer 403, and
 * afterwards every tenant-1 row of every tenant table (and tenant 1's job queue) is exactly as before.
 * Socket events of one tenant never reach another tenant's sockets (with a positive control).
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_HOURS } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../src/test/harness.js';
import { makeChannel, makeQueue, makeTicket } from '../src/test/ticket-fixtures.js';
import {
  MARK,
  type IsolationCase,
  type IsolationEnv,
  type IsolationFeature,
  type IsolationRequest,
} from './support/isolation-cases.js';

let t: TestApp;
let owner: TestUser;
let intruder: TestUser;
const ids = {
  contact: 0,
  channel: 0,
  queue: 0,
  ticket: 0,
  message: 0,
  sent: 0,
  user: 0,
  ownContact: 0,
  channel2: 0,
  meow: 0,
  evo: 0,
};

type Request = IsolationRequest;
type Case = IsolationCase;

/** The features' own cases, one file each (reliability/isolation/<feature>.cases.ts). */
const features = Object.values(
  import.meta.glob<IsolationFeature>('./isolation/*.cases.ts', { eager: true, import: 'feature' }),
);
const env = (): IsolationEnv => ({ t, owner, intruder, ids, ownContactId: ids.ownContact });
const featureCases = (): Record<string, Case> =>
  Object.assign({}, ...features.map((feature) => feature.cases(env()))) as Record<string, Case>;

const PUBLIC = 'public by design (no user token); covered by its own module tests';

const ROUTE_CASES = (): Record<string, Case> => ({
  ...featureCases(),
  'GET /api/health': { exempt: 'liveness probe, no tenant data' },
  'GET /api/auth/captcha': { exempt: PUBLIC },
  'POST /api/auth/login': { exempt: PUBLIC },
  'POST /api/auth/logout': { exempt: 'ends the caller’s own refresh session (cookie, or the bearer), names no id' },
  'POST /api/auth/refresh_token': {
    exempt: 'the refresh cookie, or the signed bearer, carries its own tenant; auth.refresh/bearer-refresh tests',
  },
  'POST /api/password-reset': { exempt: PUBLIC },
  'POST /api/reset-password': { exempt: 'the reset token carries its tenant; auth.password-reset.test.ts' },
  'POST /api/signup': { exempt: 'records a pending sign-up; no existing tenant is named' },
  'POST /api/signup/confirm': {
    exempt: 'the confirmation token names only its pending sign-up, which creates a new tenant; auth.signup.test.ts',
  },
  'GET /api/plan': { exempt: 'public plan catalogue, tenant-less' },
  'GET /api/media/:token': { exempt: 'HMAC-signed token over tenant and message; forged -> 404 (media tests)' },
  'GET /api/contacts/avatar/:token': {
    exempt:
      'HMAC-signed token over tenant, contact and stored key; forged or other-tenant -> 404 (baileys.avatars.test.ts)',
  },
  'GET /api/contacts/export/:token': { exempt: 'HMAC-signed token over the tenant; contacts.export.test.ts' },
  'POST /api/webhooks/:provider/:channelId': {
    exempt: 'provider webhook: the channel secret is the credential (401 without it), channels.webhooks.test.ts',
  },
  'POST /api/webhooks/evo/:channelId': {
    exempt: 'Evolution webhook (larger bodies): the channel secret header is the credential, evolution.flow.test.ts',
  },
  'POST /api/webhooks/meow/:channelId': {
    exempt: 'Wuzapi webhook (larger bodies): the HMAC signature is the credential, wuzapi.flow.test.ts',
  },
  'POST /api/webhooks/evo/:channelId/:event': {
    exempt:
      'Evolution "webhook by events" URL: the channel secret header is the credential, as on the channel URL; channels.webhooks.gateways.test.ts, evolution.flow.test.ts',
  },
  'GET /api/docs': { exempt: 'API browser page (swagger-ui), no data' },
  'GET /api/docs/json': { exempt: 'API description, no data' },
  'GET /api/docs/yaml': { exempt: 'API description, no data' },
  'GET /api/docs/static/*': { exempt: 'swagger-ui assets' },
  'GET /api/docs/static/index.html': { exempt: 'swagger-ui assets' },
  'GET /api/docs/static/swagger-initializer.js': { exempt: 'swagger-ui assets' },
  'POST /api/contacts/upload': {
    exempt: 'multipart import into the caller’s tenant only (RLS); names no id; contacts.import.test.ts',
  },

  'GET /api/contacts': {
    list: [
      ['GET', '/contacts'],
      ['GET', `/contacts?searchParam=${MARK}`],
    ],
  },
  'POST /api/contacts': { own: [['POST', '/contacts', { name: 'Own', number: '5511987650001' }]] },
  'GET /api/contacts/:id': { owned: [['GET', `/contacts/${ids.contact}`]] },
  'PUT /api/contacts/:id': { owned: [['PUT', `/contacts/${ids.contact}`, { name: 'Owned', blocked: true }]] },
  'DELETE /api/contacts/:id': { owned: [['DELETE', `/contacts/${ids.contact}`]] },
  'PUT /api/contact-tags/:id': { owned: [['PUT', `/contact-tags/${ids.contact}`, { tags: [] }]] },
  'PUT /api/contact-wallet/:id': { owned: [['PUT', `/contact-wallet/${ids.contact}`, { wallets: [] }]] },
  'GET /api/contacts/duplicates': { list: [['GET', '/contacts/duplicates']] },
  'POST /api/contacts/export': { own: [['POST', '/contacts/export?format=csv']] },
  'POST /api/contacts/merge': {
    owned: [
      ['POST', '/contacts/merge', { targetId: ids.contact, sourceIds: [ids.ownContact] }],
      ['POST', '/contacts/merge', { targetId: ids.ownContact, sourceIds: [ids.contact] }],
    ],
  },

  'GET /api/messages/:ticketId': { owned: [['GET', `/messages/${ids.ticket}`]] },
  'POST /api/messages/:ticketId': { owned: [['POST', `/messages/${ids.ticket}`, { body: 'intruso' }]] },
  'DELETE /api/messages': { owned: [['DELETE', '/messages', { id: ids.sent }]] },
  'PATCH /api/messages/:id': { owned: [['PATCH', `/messages/${ids.sent}`, { body: 'intruso' }]] },
  'POST /api/messages/editMessage': {
    owned: [['POST', '/messages/editMessage', { messageId: ids.sent, ticketId: ids.ticket, newBody: 'x' }]],
  },
  'POST /api/messages/reactionMessage': {
    owned: [['POST', '/messages/reactionMessage', { messageId: ids.message, ticketId: ids.ticket, reaction: '👎' }]],
  },
  'POST /api/forward-messages': {
    owned: [
      ['POST', '/forward-messages', { messages: [ids.message], contact: ids.ownContact }],
      ['POST', '/forward-messages', { messages: [ids.message], contact: ids.contact }],
    ],
  },
  'GET /api/searchMessage': { list: [['GET', `/searchMessage?searchTerm=${MARK}`]] },

  'GET /api/queue': { list: [['GET', '/queue']] },
  'POST /api/queue': { own: [['POST', '/queue', { queue: `${MARK} Fila` }]] },
  'PUT /api/queue/:id': { owned: [['PUT', `/queue/${ids.queue}`, { queue: 'Roubada' }]] },
  'DELETE /api/queue/:id': { owned: [['DELETE', `/queue/${ids.queue}`]] },

  'GET /api/settings': { list: [['GET', '/settings']] },
  'GET /api/settings/:key': { list: [['GET', '/settings/NotViewAssignedTickets']] },
  'GET /api/settings/auto-close-preview': { list: [['GET', '/settings/auto-close-preview?minutes=10']] },
  'PUT /api/settings/:key': {
    own: [['PUT', '/settings/undefined', { key: 'NotViewAssignedTickets', value: 'enabled' }]],
  },

  'GET /api/tenants': { refused: [['GET', '/tenants']] },
  'POST /api/tenants': { refused: [['POST', '/tenants', { name: 'X', maxUsers: 1, maxConnections: 1 }]] },
  'GET /api/tenants/:id': { list: [['GET', '/tenants/1']] },
  'PUT /api/tenantsUpdate/:id': { refused: [['PUT', '/tenantsUpdate/1', { name: 'Hacked' }]] },
  'DELETE /api/tenants/:id': { refused: [['DELETE', '/tenants/1']] },
  'GET /api/tenants/date': { list: [['GET', '/tenants/date']] },
  'GET /api/tenants/business-hours': { list: [['GET', '/tenants/business-hours']] },
  'PUT /api/tenants/business-hours': { own: [['PUT', '/tenants/business-hours', DEFAULT_BUSINESS_HOURS]] },
  'PUT /api/tenants/message-business-hours': {
    own: [['PUT', '/tenants/message-business-hours', { messageBusinessHours: 'Voltamos logo' }]],
  },
  'GET /api/tenants/rating': { list: [['GET', '/tenants/rating']] },
  'PUT /api/tenants/rating': { own: [['PUT', '/tenants/rating', [{ rating: 5, label: 'Otimo' }]]] },
  'GET /api/tenants/systemColors': { list: [['GET', '/tenants/systemColors']] },
  'PUT /api/tenants/systemColors': {
    own: [['PUT', '/tenants/systemColors', [{ label: 'Primary', primary: '#000000' }]]],
  },
  'GET /api/publicSystemColors': {
    exempt: "public by design: the installation's (tenant 1's) colours for the login page",
  },
  'GET /api/public/app-info': { exempt: 'public branding, installation-wide, no tenant data' },
  'GET /api/public/logo.svg': { exempt: 'public branding asset' },
  'GET /api/public/favicon.svg': { exempt: 'public branding asset' },
  'GET /api/public/icon-192.png': { exempt: 'public branding asset' },
  'GET /api/public/icon-512.png': { exempt: 'public branding asset' },
  'GET /api/public/manifest.webmanifest': { exempt: 'public branding asset' },
  'GET /api/public/logos/*': { exempt: 'uploaded logos (none yet): every name answers 404; branding.test.ts' },

  'GET /api/tickets': {
    list: [['GET', '/tickets?showAll=true&status[]=open&status[]=pending&status[]=closed']],
  },
  'POST /api/tickets': {
    owned: [
      ['POST', '/tickets', { contactId: ids.contact }],
      ['POST', '/tickets', { contactId: ids.ownContact, channelId: ids.channel }],
    ],
  },
  'GET /api/tickets/:id': { owned: [['GET', `/tickets/${ids.ticket}`]] },
  'PUT /api/tickets/:id': {
    owned: [
      ['PUT', `/tickets/${ids.ticket}`, { status: 'closed' }],
      ['PUT', `/tickets/${ids.ticket}`, { unreadMessages: 0 }],
    ],
  },
  'GET /api/tickets/:ticketId/logs': { owned: [['GET', `/tickets/${ids.ticket}/logs`]] },
  'PUT /api/ticketsForce/:id': { owned: [['PUT', `/ticketsForce/${ids.ticket}`, {}]] },
  'PUT /api/ticketsNull/:id': { owned: [['PUT', `/ticketsNull/${ids.ticket}`, {}]] },
  'PUT /api/ticketsChatBot/:id': { owned: [['PUT', `/ticketsChatBot/${ids.ticket}`, { chatFlowId: 1 }]] },
  'PUT /api/ticketsChannelId/:id': {
    owned: [['PUT', `/ticketsChannelId/${ids.ticket}`, { whatsappId: ids.channel }]],
  },
  'PUT /api/ticketsChannel': {
    owned: [['PUT', '/ticketsChannel', { whatsappId: ids.channel, newWhatsappId: ids.channel2 }]],
  },
  'GET /api/ticketsClear': { own: [['GET', '/ticketsClear']] },
  'GET /api/ticketsMarkAllUnread': { own: [['GET', '/ticketsMarkAllUnread']] },
  'PUT /api/ticketsUpdateAllUnreadMessages': { own: [['PUT', '/ticketsUpdateAllUnreadMessages']] },
  'POST /api/pending/resolvePending': { own: [['POST', '/pending/resolvePending']] },
  'POST /api/forceMessage': { own: [['POST', '/forceMessage']] },
  'POST /api/closeAllOpen': { owned: [['POST', '/closeAllOpen', { whatsappId: ids.channel }]] },
  'POST /api/closeAllPending': { owned: [['POST', '/closeAllPending', { whatsappId: ids.channel }]] },

  'GET /api/users': {
    list: [
      ['GET', '/users'],
      ['GET', `/users?searchParam=${MARK}`],
    ],
  },
  'POST /api/users': {
    own: [['POST', '/users', { name: 'Own', email: 'own-user@t2.test', password: 'Passw0rd!', profile: 'user' }]],
  },
  'GET /api/users/:id': { owned: [['GET', `/users/${ids.user}`]] },
  'PUT /api/users/:id': { owned: [['PUT', `/users/${ids.user}`, { name: 'Owned', profile: 'admin' }]] },
  'DELETE /api/users/:id': { owned: [['DELETE', `/users/${ids.user}`]] },
  'PUT /api/users/:id/configs': { owned: [['PUT', `/users/${ids.user}/configs`, { isDark: true }]] },
  'PUT /api/usersIsOnline/:id': { owned: [['PUT', `/usersIsOnline/${ids.user}`, { isOnline: true }]] },
  'GET /api/users/chat-privado': { list: [['GET', '/users/chat-privado']] },
  'GET /api/userTenants': { refused: [['GET', '/userTenants']] },
  'POST /api/userTenants': {
    refused: [['POST', '/userTenants', { tenantId: 1, name: 'X', email: 'x@x.test', password: 'Passw0rd!' }]],
  },
  'PUT /api/userTenants/:id': { refused: [['PUT', `/userTenants/${ids.user}`, { tenantId: 2 }]] },
  'DELETE /api/userTenants/:id': { refused: [['DELETE', `/userTenants/${ids.user}`, { tenantId: 1 }]] },

  'GET /api/whatsapp': { list: [['GET', '/whatsapp']] },
  'POST /api/whatsapp': { own: [['POST', '/whatsapp', { name: `${MARK} Canal`, type: 'telegram' }]] },
  'GET /api/whatsapp/:id': { owned: [['GET', `/whatsapp/${ids.channel}`]] },
  'PUT /api/whatsapp/:id': { owned: [['PUT', `/whatsapp/${ids.channel}`, { name: 'Owned', type: 'telegram' }]] },
  'DELETE /api/whatsapp/:id': { owned: [['DELETE', `/whatsapp/${ids.channel}`]] },
  'POST /api/whatsappRemovePicture/:id': { owned: [['POST', `/whatsappRemovePicture/${ids.channel}`]] },
  'POST /api/setDefault': { owned: [['POST', '/setDefault', { whatsappId: ids.channel }]] },
  'GET /api/whatsappTenantsAll': { refused: [['GET', '/whatsappTenantsAll']] },
  'POST /api/whatsappTenants': {
    refused: [['POST', '/whatsappTenants', { name: 'X', type: 'telegram', tenantId: 1 }]],
  },
  'GET /api/whatsappTenants/:id': { refused: [['GET', `/whatsappTenants/${ids.channel}`]] },
  'PUT /api/whatsappTenants/:id': {
    refused: [['PUT', `/whatsappTenants/${ids.channel}`, { name: 'X', type: 'telegram' }]],
  },
  'DELETE /api/whatsappTenants/:id': { refused: [['DELETE', `/whatsappTenants/${ids.channel}`]] },
  'POST /api/whatsappsession/:id': { owned: [['POST', `/whatsappsession/${ids.channel}`]] },
  'PUT /api/whatsappsession/:id': { owned: [['PUT', `/whatsappsession/${ids.channel}`, { isQrcode: true }]] },
  'DELETE /api/whatsappsession/:id': { owned: [['DELETE', `/whatsappsession/${ids.channel}`]] },
  // Tenant 1 has a meow channel with instance id `vitima01`; another tenant's admin cannot reach it by that id.
  'POST /api/meow-qrcode/:wabaId': { owned: [['POST', '/meow-qrcode/vitima01', { id: ids.meow }]] },
  'POST /api/meow-setwebhook/:wabaId': { owned: [['POST', '/meow-setwebhook/vitima01', { id: ids.meow }]] },
  // Tenant 1 has an evo channel with instance name `VitimaEvo`; another tenant's admin cannot reach it by that name.
  'POST /api/evo-qrcode/:wabaId': { owned: [['POST', '/evo-qrcode/VitimaEvo', { id: ids.evo }]] },
  'POST /api/evo-setwebhook/:wabaId': { owned: [['POST', '/evo-setwebhook/VitimaEvo', { id: ids.evo }]] },
  // The gateway names of the generic send, reaction and edit (messages.gateway.routes.ts).
  'POST /api/evo-message/:ticketId': { owned: [['POST', `/evo-message/${ids.ticket}`, { body: 'intruso' }]] },
  'POST /api/meow-message/:ticketId': { owned: [['POST', `/meow-message/${ids.ticket}`, { body: 'intruso' }]] },
  'POST /api/evo-react/:ticketId': {
    owned: [['POST', `/evo-react/${ids.ticket}`, { messageId: ids.message, reaction: '👎', whatsapp: { id: 1 } }]],
  },
  'POST /api/meow-react/:ticketId': {
    owned: [['POST', `/meow-react/${ids.ticket}`, { messageId: ids.message, reaction: '👎', whatsapp: { id: 1 } }]],
  },
  'POST /api/evo-edition/:ticketId': {
    owned: [['POST', `/evo-edition/${ids.ticket}`, { messageId: ids.sent, newText: 'x', whatsapp: { id: 1 } }]],
  },
  'POST /api/meow-edition/:ticketId': {
    owned: [['POST', `/meow-edition/${ids.ticket}`, { messageId: ids.sent, newText: 'x', whatsapp: { id: 1 } }]],
  },
  // Live WhatsApp session calls (messages.live.routes.ts): ticket- and channel-bound ones name tenant-1 ids.
  'POST /api/messages/listParticipants': {
    owned: [
      ['POST', '/messages/listParticipants', { ticket: { id: ids.ticket } }],
      ['POST', '/messages/listParticipants', { ticket: ids.ticket, whatsappId: ids.channel }],
    ],
  },
  'POST /api/messages/mentionMessage': {
    owned: [
      ['POST', '/messages/mentionMessage', { body: 'x', ticket: { id: ids.ticket }, participants: ['5511999990000'] }],
    ],
  },
  'POST /api/messages/mentionAllMessage': {
    owned: [['POST', '/messages/mentionAllMessage', { body: 'x', ticket: { id: ids.ticket } }]],
  },
  'POST /api/messages/ghostMessage': { owned: [['POST', '/messages/ghostMessage', { body: 'x', ticket: ids.ticket }]] },
  'POST /api/messages/syncOld': { owned: [['POST', '/messages/syncOld', { whatsappId: ids.channel, limit: 10 }]] },
  'POST /api/messages/syncOldByUser': {
    owned: [
      ['POST', '/messages/syncOldByUser', { whatsappId: ids.channel, limit: 10, contactId: '5511999990000@c.us' }],
    ],
  },
  'POST /api/noRedis': {
    owned: [
      ['POST', '/noRedis', { whatsappId: ids.channel, message: { body: 'intruso' }, ticket: { id: ids.ticket } }],
      ['POST', '/noRedis', { message: { body: 'intruso' }, ticket: { id: ids.ticket } }],
    ],
  },
  // Whole-tenant sync and checks act on the caller's own sessions and contacts only.
  'POST /api/groups/sync': { own: [['POST', '/groups/sync']] },
  'POST /api/contacts/sync': { own: [['POST', '/contacts/sync']] },
  'POST /api/checkContacts': { own: [['POST', '/checkContacts']] },
  'GET /api/contactsNumber/:number': { own: [['GET', '/contactsNumber/5511999990000']] },
  // Gateway defaults name their tenant: another tenant's admin is refused.
  'PUT /api/tenantsEvolutionHost/:id': {
    refused: [['PUT', '/tenantsEvolutionHost/1', { evoHost: 'https://evil.example', evoToken: 'x' }]],
  },
  'PUT /api/tenantsWuzapiHost/:id': {
    refused: [['PUT', '/tenantsWuzapiHost/1', { wuzapiHost: 'https://evil.example' }]],
  },
});

/** Every tenant-1 row of every table with a tenant_id (found in the catalogue), tenant 1 itself and its jobs. */
async function tenantOneSnapshot(): Promise<Record<string, string | null>> {
  const { rows: tables } = await t.database.executeSql(
    `select table_name from information_schema.columns
      where table_schema = 'public' and column_name = 'tenant_id' order by table_name`,
  );
  const snapshot: Record<string, string | null> = {};
  for (const { table_name } of tables as { table_name: string }[]) {
    const { rows } = await t.database.executeSql(
      `select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${table_name}" x
        where tenant_id = 1`,
    );
    snapshot[table_name] = rows[0]!.h as string;
  }
  const tenant = await t.database.executeSql(`select md5(x::text) as h from tenants x where id = 1`);
  snapshot.tenants = tenant.rows[0]!.h as string;
  const jobs = await t.database.executeSql(`select count(*)::text as n from pgboss.job where data->>'tenantId' = '1'`);
  snapshot['pgboss.job'] = jobs.rows[0]!.n as string;
  return snapshot;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ tenantId: 1, profile: 'admin', name: `${MARK} Dona` });
  const tenant2 = await t.createTenant({ maxUsers: 50, maxConnections: 50 });
  intruder = await t.createUser({ tenantId: tenant2, profile: 'admin', name: 'Intrusa' });
  ids.user = (await t.createUser({ tenantId: 1, name: `${MARK} Usuario` })).id;
  ids.channel = await makeChannel(t, 1, { name: `${MARK} Canal`, isDefault: true });
  ids.channel2 = await makeChannel(t, 1, { name: `${MARK} Canal 2` });
  ids.meow = (
    await t.call(owner, 'POST', '/whatsapp', {
      name: `${MARK} Meow`,
      type: 'meow',
      remotePath: 'http://127.0.0.1:9',
      tokenAPI: 'vitima-token',
      wabaId: 'vitima01',
    })
  ).json<{ id: number }>().id;
  ids.evo = (
    await t.call(owner, 'POST', '/whatsapp', {
      name: `${MARK} Evo`,
      type: 'evo',
      remotePath: 'http://127.0.0.1:9',
      tokenAPI: 'vitima-key',
    })
  ).json<{ id: number }>().id;
  await makeChannel(t, tenant2, { isDefault: true });
  ids.queue = await makeQueue(t, 1, `${MARK} Fila`);
  // Tenant 1's own preferences carry the mark, so a list answer leaking them is seen.
  await t.call(owner, 'PUT', '/tenants/message-business-hours', { messageBusinessHours: `${MARK} ausente` });
  await t.call(owner, 'PUT', '/tenants/rating', [{ rating: 0, label: `${MARK} nota` }]);
  const contact = await t.call(owner, 'POST', '/contacts', { name: `${MARK} Contato`, number: '5511987650001' });
  ids.contact = contact.json<{ id: number }>().id;
  ids.ownContact = (await t.call(intruder, 'POST', '/contacts', { name: 'Propria', number: '5511987650002' })).json<{
    id: number;
  }>().id;
  ids.ticket = await makeTicket(t, 1, { contactId: ids.contact, channelId: ids.channel, status: 'open' });
  const { rows } = await t.database.executeSql(
    `insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body, message_id, ack, status)
     values (1, $1, $2, $3, false, '${MARK} segredo', 'p-in-1', 0, 'received'),
            (1, $1, $2, $3, true, '${MARK} resposta', 'p-out-1', 1, 'sended')
     returning id`,
    [ids.ticket, ids.contact, ids.channel],
  );
  ids.message = rows[0]!.id as number;
  ids.sent = rows[1]!.id as number;
  for (const feature of features) await feature.seed(env());
});
afterAll(async () => t.close());

const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;
/** The API lives under /api; everything else is the built web app's static files (public, no tenant data). */
const isApi = (route: { url: string }) => route.url === '/api' || route.url.startsWith('/api/');

describe('tenant isolation over every route', () => {
  it('has a case or a justified exemption for every route of the app, and no case for a route that is gone', () => {
    const routes = new Set(t.routes.filter(isApi).map(key));
    const staticRoutes = t.routes.filter((route) => !isApi(route));
    expect(
      staticRoutes.filter((route) => route.method !== 'GET' && route.method !== 'HEAD').map(key),
      'routes outside /api must be static files (GET/HEAD)',
    ).toEqual([]);
    const cases = ROUTE_CASES();
    expect(
      [...routes].filter((route) => !(route in cases)),
      'routes without an isolation case',
    ).toEqual([]);
    expect(
      Object.keys(cases).filter((route) => !routes.has(route)),
      'cases of routes that are gone',
    ).toEqual([]);
  });

  it('gives tenant 2 nothing of tenant 1 on any route, and changes nothing of tenant 1', async () => {
    const before = await tenantOneSnapshot();
    const problems: string[] = [];
    for (const [route, test] of Object.entries(ROUTE_CASES())) {
      if ('exempt' in test) continue;
      const [kind, requests] = Object.entries(test)[0] as [string, Request[]];
      for (const [method, path, body] of requests) {
        const res = await t.call(intruder, method, path, body);
        const where = `${route} (${method} ${path}) -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (kind === 'owned' && res.statusCode !== 404) problems.push(where);
        if (kind === 'refused' && res.statusCode !== 403) problems.push(where);
        if (kind === 'list' && (res.statusCode >= 300 || res.body.includes(MARK))) problems.push(where);
        if (kind === 'own' && res.statusCode >= 500) problems.push(where);
      }
    }
    expect(problems).toEqual([]);
    expect(await tenantOneSnapshot()).toEqual(before);
  });
});

describe('socket events', () => {
  it('reach the sockets of the tenant they belong to, never another tenant’s', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const connect = (user: TestUser) =>
      new Promise<{ socket: Socket; events: string[] }>((resolve, reject) => {
        const socket = io(`http://127.0.0.1:${port}`, { auth: { token: user.token }, transports: ['websocket'] });
        const events: string[] = [];
        socket.onAny((event: string) => events.push(event));
        socket.once('connect', () => resolve({ socket, events }));
        socket.once('connect_error', reject);
      });
    const mine = await connect(await t.createUser({ tenantId: 1, profile: 'admin' }));
    const theirs = await connect(intruder);
    try {
      // Tenant-1 activity: a contact change and a ticket change, each published to tenant 1's rooms.
      await t.call(owner, 'PUT', `/contacts/${ids.contact}`, { name: `${MARK} Renomeada` });
      await t.call(owner, 'PUT', `/tickets/${ids.ticket}`, { unreadMessages: 1 });
      const deadline = Date.now() + 5000;
      while (mine.events.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      expect(mine.events.some((event) => event.startsWith('1:'))).toBe(true);
      expect(theirs.events).toEqual([]);
    } finally {
      mine.socket.disconnect();
      theirs.socket.disconnect();
    }
  });
});

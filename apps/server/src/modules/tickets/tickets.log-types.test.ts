/**
 * Log types stay inside client-contract §4.3's list: the shared const is that list, every raw SQL insert into
 * ticket_logs writes one of its names, a reopen, a force close and a channel move are logged under the contract's
 * names, and rows stored under the old names (reopen, forceClosed, channel) are answered under the contract's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_LOG_TYPES, type TicketLogDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { logTypes, makeChannel, makeContact, makeTicket } from '../../test/ticket-fixtures.js';
import { contractLogType } from './tickets.log-types.js';

/** client-contract §4.3, `GET /tickets/{ticketId}/logs`: "type ∈ ...", in its order. */
const CONTRACT_LOG_TYPES = [
  'access',
  'closed',
  'create',
  'delete',
  'open',
  'pending',
  'transfered',
  'receivedTransfer',
  'queue',
  'userDefine',
  'retriesLimitQueue',
  'retriesLimitUserDefine',
  'chatBot',
  'autoClose',
];

const SERVER_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('the log types the server writes', () => {
  it('are exactly the contract’s list (the type every typed insert is checked against)', () => {
    expect([...TICKET_LOG_TYPES]).toEqual(CONTRACT_LOG_TYPES);
  });

  it('include every type a raw SQL insert into ticket_logs names', () => {
    // `insert into ticket_logs (tenant_id, ticket_id, user_id, type, details) select <tenant>, <ticket>, <user>, <type>`
    const insert =
      /insert into ticket_logs \(tenant_id, ticket_id, user_id, type, details\)\s*select ([\s\S]{0,200})/gi;
    const found: { file: string; type: string }[] = [];
    for (const file of sourceFiles(SERVER_SRC)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(insert)) {
        // The fourth selected value: a quoted literal or a typed parameter.
        const fourth = splitSelect(match[1]!)[3]?.trim() ?? '';
        found.push({ file: path.relative(SERVER_SRC, file), type: fourth });
      }
    }
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const { file, type } of found) {
      const literal = /^'(\w+)'$/.exec(type)?.[1];
      // A parameter must be `${type}` of a TicketLogType-typed function (tickets.bulk.repository.ts).
      if (!literal) expect(type, file).toBe('${type}');
      else expect(CONTRACT_LOG_TYPES, `${file} writes '${literal}'`).toContain(literal);
    }
  });

  it('reads old rows under the contract’s names', () => {
    expect(contractLogType('reopen')).toBe('open');
    expect(contractLogType('forceClosed')).toBe('closed');
    expect(contractLogType('channel')).toBe('transfered');
    for (const type of CONTRACT_LOG_TYPES) expect(contractLogType(type)).toBe(type);
  });
});

/** The comma-separated values of a SELECT list, commas inside ${...} and (...) not counting. */
function splitSelect(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '{' || ch === '(') depth += 1;
    if (ch === '}' || ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

describe('GET /tickets/{id}/logs', () => {
  let t: TestApp;
  let agent: TestUser;
  let channel: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.createStaff());
    channel = await makeChannel(t, 1);
  });
  afterAll(() => t.close());

  const logsOf = async (id: number) => {
    const res = await t.call(agent, 'GET', `/tickets/${id}/logs?ticketId=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TicketLogDto[]>();
  };

  it('logs a reopen as open (details say reopened) and a close without farewell as closed (force)', async () => {
    const id = await makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: channel, status: 'closed' });
    const reopened = await t.call(agent, 'PUT', `/tickets/${id}`, { status: 'open', userId: agent.id });
    expect(reopened.statusCode, reopened.body).toBe(200);
    const forced = await t.call(agent, 'PUT', `/ticketsForce/${id}`, { status: 'closed', userId: agent.id });
    expect(forced.statusCode, forced.body).toBe(200);
    const logs = await logsOf(id);
    expect(logs.map((l) => [l.type, l.details.reopened ?? l.details.force])).toEqual([
      ['open', true],
      ['closed', true],
    ]);
    expect(logs[0]!.user).toMatchObject({ id: agent.id });
    // Stored so, not only answered so.
    expect(await logTypes(t, id)).toEqual(['open', 'closed']);
  });

  it('answers rows stored under the old names with the contract’s names', async () => {
    const id = await makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: channel, status: 'open' });
    for (const old of ['reopen', 'forceClosed', 'channel']) {
      await t.database.executeSql(
        `insert into ticket_logs (tenant_id, ticket_id, user_id, type, details) values (1, $1, null, $2, '{}')`,
        [id, old],
      );
    }
    expect((await logsOf(id)).map((l) => l.type)).toEqual(['open', 'closed', 'transfered']);
  });
});

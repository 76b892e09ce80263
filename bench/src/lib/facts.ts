/** What the bench needs to know of the seeded data, read before the server starts (PGlite has one process). */
import type { DatabaseHandle } from '../../../apps/server/src/platform/db/client.js';

export interface BenchUser {
  id: number;
  tenantId: number;
  email: string;
  profile: string;
  queueIds: number[];
}

export interface ActiveTicket {
  id: number;
  queueId: number | null;
  userId: number | null;
  chatId: string;
}

export interface BenchFacts {
  /** The tenant the HTTP scenarios and ingestion use (the one-company tenant when seeded). */
  tenantId: number;
  tenantIds: number[];
  users: BenchUser[];
  channels: { id: number; tenantId: number; token: string }[];
  ticketIds: number[];
  activeTickets: ActiveTicket[];
}

const rows = async (handle: DatabaseHandle, text: string, values: unknown[] = []) =>
  (await handle.executeSql(text, values.length ? values : undefined)).rows;

export async function readFacts(handle: DatabaseHandle): Promise<BenchFacts> {
  const tenants = await rows(
    handle,
    `SELECT id, identity FROM tenants WHERE identity LIKE 'bench:%' ORDER BY identity, id`,
  );
  if (tenants.length === 0) throw new Error('no bench tenants: run npm run bench:seed first');
  const primary = tenants.find((t) => t.identity === 'bench:one-company') ?? tenants[0]!;
  const tenantId = Number(primary.id);
  const tenantIds = tenants.map((t) => Number(t.id));
  const users = (
    await rows(
      handle,
      `SELECT u.id, u.tenant_id, u.email, u.profile, coalesce(array_agg(uq.queue_id) FILTER (WHERE uq.queue_id IS NOT NULL), '{}') AS queues
         FROM users u LEFT JOIN user_queues uq ON uq.user_id = u.id
        WHERE u.tenant_id = ANY($1::bigint[]) GROUP BY u.id ORDER BY u.tenant_id, u.id`,
      [tenantIds],
    )
  ).map((u) => ({
    id: Number(u.id),
    tenantId: Number(u.tenant_id),
    email: String(u.email),
    profile: String(u.profile),
    queueIds: (u.queues as unknown[]).map(Number),
  }));
  const channels = (
    await rows(
      handle,
      `SELECT id, tenant_id, token_telegram FROM channels WHERE tenant_id = ANY($1::bigint[]) AND type = 'telegram' ORDER BY id`,
      [tenantIds],
    )
  ).map((c) => ({ id: Number(c.id), tenantId: Number(c.tenant_id), token: String(c.token_telegram) }));
  const ticketIds = (
    await rows(handle, `SELECT id FROM tickets WHERE tenant_id = $1 ORDER BY random() LIMIT 5000`, [tenantId])
  ).map((t) => Number(t.id));
  const activeTickets = (
    await rows(
      handle,
      `SELECT t.id, t.queue_id, t.user_id, c.telegram_id FROM tickets t JOIN contacts c ON c.id = t.contact_id
        WHERE t.tenant_id = $1 AND t.status IN ('open', 'pending') AND c.telegram_id IS NOT NULL
        ORDER BY random() LIMIT 5000`,
      [tenantId],
    )
  ).map((t) => ({
    id: Number(t.id),
    queueId: t.queue_id === null ? null : Number(t.queue_id),
    userId: t.user_id === null ? null : Number(t.user_id),
    chatId: String(t.telegram_id),
  }));
  return { tenantId, tenantIds, users, channels, ticketIds, activeTickets };
}

/** Product-spec §6 with the default settings, as the server's realtime audience applies it ("may see at all"). */
export function maySee(user: BenchUser, tenantId: number, ticket: Pick<ActiveTicket, 'queueId' | 'userId'>): boolean {
  if (user.tenantId !== tenantId) return false;
  if (user.profile !== 'user' || ticket.userId === user.id || ticket.queueId === null) return true;
  return user.queueIds.includes(ticket.queueId);
}

/** The ticket's history (ticket_logs): one row per change, read back for the ticket's log screen. */
import { and, asc, eq } from 'drizzle-orm';
import type { TicketLogType } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { statement } from '../../platform/db/statements.js';
import { users } from '../users/users.tables.js';
import { ticketLogs } from './tickets.tables.js';

const insertLogRow = statement('ticket_log_insert', ['tenantId', 'ticketId', 'userId', 'type', 'details'], (q, p) =>
  q.insert(ticketLogs).values(p),
);

export async function insertLog(
  tx: Queryable,
  tenantId: TenantId,
  log: { ticketId: number; userId: number | null; type: TicketLogType; details?: Record<string, unknown> },
): Promise<void> {
  await insertLogRow(tx, { tenantId, ...log, details: log.details ?? {} });
}

export async function listLogs(tx: Queryable, tenantId: TenantId, ticketId: number) {
  return tx
    .select({
      id: ticketLogs.id,
      type: ticketLogs.type,
      createdAt: ticketLogs.createdAt,
      details: ticketLogs.details,
      userId: users.id,
      userName: users.name,
    })
    .from(ticketLogs)
    .leftJoin(users, eq(users.id, ticketLogs.userId))
    .where(and(eq(ticketLogs.tenantId, tenantId), eq(ticketLogs.ticketId, ticketId)))
    .orderBy(asc(ticketLogs.id));
}

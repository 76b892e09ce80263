/** The queries on the legacy auto-reply's three tables (and the rows an action may name). */
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AutoReplyDto } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { queues } from '../queues/queues.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';
import { toAutoReplyDto, type AutoReplyActionRow, type AutoReplyRow, type AutoReplyStepRow } from './chatbot.dto.js';
import { autoReplies, autoReplyActions, autoReplySteps } from './chatbot.tables.js';

export async function findAutoReply(tx: Queryable, tenantId: TenantId, id: number, lock = false) {
  const query = tx
    .select()
    .from(autoReplies)
    .where(and(eq(autoReplies.tenantId, tenantId), eq(autoReplies.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findStep(tx: Queryable, tenantId: TenantId, id: number, lock = false) {
  const query = tx
    .select()
    .from(autoReplySteps)
    .where(and(eq(autoReplySteps.tenantId, tenantId), eq(autoReplySteps.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findAction(tx: Queryable, tenantId: TenantId, id: number) {
  const [row] = await tx
    .select()
    .from(autoReplyActions)
    .where(and(eq(autoReplyActions.tenantId, tenantId), eq(autoReplyActions.id, id)))
    .for('update');
  return row;
}

export async function stepsOf(tx: Queryable, tenantId: TenantId, autoReplyIds: number[]): Promise<AutoReplyStepRow[]> {
  if (autoReplyIds.length === 0) return [];
  return tx
    .select()
    .from(autoReplySteps)
    .where(and(eq(autoReplySteps.tenantId, tenantId), inArray(autoReplySteps.autoReplyId, autoReplyIds)))
    .orderBy(asc(autoReplySteps.id));
}

export async function actionsOf(tx: Queryable, tenantId: TenantId, stepIds: number[]): Promise<AutoReplyActionRow[]> {
  if (stepIds.length === 0) return [];
  return tx
    .select()
    .from(autoReplyActions)
    .where(and(eq(autoReplyActions.tenantId, tenantId), inArray(autoReplyActions.stepReplyId, stepIds)))
    .orderBy(asc(autoReplyActions.id));
}

/** An auto-reply DTO with its steps and their actions. */
export async function loadDto(tx: Queryable, tenantId: TenantId, row: AutoReplyRow): Promise<AutoReplyDto> {
  const steps = await stepsOf(tx, tenantId, [row.id]);
  const actions = await actionsOf(
    tx,
    tenantId,
    steps.map((s) => s.id),
  );
  return toAutoReplyDto(row, steps, actions);
}

/**
 * Serializes the "one auto-reply per trigger" check of a tenant (no unique index states it): two concurrent creates
 * would both find none.
 */
export async function lockTriggers(tx: Queryable, tenantId: TenantId): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('chatbot.auto-reply-trigger'), ${tenantId}::int)`);
}

export async function triggerTaken(
  tx: Queryable,
  tenantId: TenantId,
  action: number,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: autoReplies.id })
    .from(autoReplies)
    .where(
      and(
        eq(autoReplies.tenantId, tenantId),
        eq(autoReplies.action, action),
        ...(exceptId === undefined ? [] : [ne(autoReplies.id, exceptId)]),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function hasActiveTicket(tx: Queryable, tenantId: TenantId, autoReplyId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.tenantId, tenantId),
        eq(tickets.autoReplyId, autoReplyId),
        inArray(tickets.status, ['open', 'pending']),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The only initial step of its auto-reply: the others lose the mark (one partial unique index allows one). */
export async function clearInitialStep(tx: Queryable, tenantId: TenantId, autoReplyId: number, exceptId?: number) {
  await tx
    .update(autoReplySteps)
    .set({ initialStep: false, updatedAt: sql`now()` })
    .where(
      and(
        eq(autoReplySteps.tenantId, tenantId),
        eq(autoReplySteps.autoReplyId, autoReplyId),
        eq(autoReplySteps.initialStep, true),
        ...(exceptId === undefined ? [] : [ne(autoReplySteps.id, exceptId)]),
      ),
    );
}

export async function queueExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.tenantId, tenantId), eq(queues.id, id)));
  return row !== undefined;
}

export async function userExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return row !== undefined;
}

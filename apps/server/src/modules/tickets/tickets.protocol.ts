/**
 * Protocol numbers: one per ticket, counted per tenant and day in `tenant_counters`, formatted `YYYYMMDD` + a
 * five-digit sequence (20261121-00042). The counter row is incremented with an upsert in a short transaction beside
 * the caller's (withTenantBesideStatement), so concurrent ticket creations in one tenant get distinct numbers without queueing
 * behind each other's whole transaction: inside the caller's transaction the row stayed locked until it committed,
 * which serialised every new ticket of a tenant (183 ms of lock wait per new ticket in the ingestion bench). A
 * creation that then rolls back, or loses the race for the contact's active ticket, leaves a gap in the day's numbers.
 */
import type { Tx } from '../../platform/db/client.js';
import { systemContext, withTenantBesideStatement } from '../../platform/db/tenancy.js';

export async function allocateProtocol(tx: Tx, tenantId: number, now = new Date()): Promise<string> {
  const [protocol] = await allocateProtocols(tx, tenantId, 1, now);
  return protocol!;
}

/**
 * `count` consecutive numbers of the day in one increment (a batch of new tickets), one round trip: the statement is
 * text built from checked integers and the day's digits.
 */
export async function allocateProtocols(tx: Tx, tenantId: number, count: number, now = new Date()): Promise<string[]> {
  if (!Number.isSafeInteger(count) || count < 1) throw new Error('protocol count must be a positive integer');
  if (!Number.isSafeInteger(tenantId)) throw new Error('tenant id must be an integer');
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const [row] = await withTenantBesideStatement<{ value: number }>(
    tx,
    systemContext(tenantId),
    `insert into tenant_counters (tenant_id, name, value) values (${tenantId}, 'protocol:${day}', ${count})
     on conflict (tenant_id, name) do update set value = tenant_counters.value + ${count}
     returning value::int as value`,
  );
  const last = Number(row?.value ?? count);
  return Array.from({ length: count }, (_, i) => `${day}-${String(last - count + 1 + i).padStart(5, '0')}`);
}

/**
 * Protocol numbers: one per ticket, counted per tenant and day in `tenant_counters`, formatted `YYYYMMDD` + a
 * five-digit sequence (20261121-00042). The counter row is incremented with an upsert in a short transaction beside
 * the caller's (withTenantBeside), so concurrent ticket creations in one tenant get distinct numbers without queueing
 * behind each other's whole transaction: inside the caller's transaction the row stayed locked until it committed,
 * which serialised every new ticket of a tenant (183 ms of lock wait per new ticket in the ingestion bench). A
 * creation that then rolls back, or loses the race for the contact's active ticket, leaves a gap in the day's numbers.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/client.js';
import { systemContext, withTenantBeside } from '../../platform/db/tenancy.js';

export async function allocateProtocol(tx: Tx, tenantId: number, now = new Date()): Promise<string> {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const [row] = await withTenantBeside(tx, systemContext(tenantId), (own) =>
    queryRows<{ value: number }>(
      own,
      sql`insert into tenant_counters (tenant_id, name, value) values (${tenantId}, ${`protocol:${day}`}, 1)
          on conflict (tenant_id, name) do update set value = tenant_counters.value + 1
          returning value::int as value`,
    ),
  );
  return `${day}-${String(row?.value ?? 1).padStart(5, '0')}`;
}

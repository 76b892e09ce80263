/**
 * Protocol numbers: one per ticket, counted per tenant and day in `tenant_counters`, formatted `YYYYMMDD` + a
 * five-digit sequence (20261121-00042). The counter row is incremented with an upsert, so concurrent ticket creations
 * in one tenant get distinct numbers (the row lock serialises them only for that tenant).
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/client.js';

export async function allocateProtocol(tx: Tx, tenantId: number, now = new Date()): Promise<string> {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const [row] = await queryRows<{ value: number }>(
    tx,
    sql`insert into tenant_counters (tenant_id, name, value) values (${tenantId}, ${`protocol:${day}`}, 1)
        on conflict (tenant_id, name) do update set value = tenant_counters.value + 1
        returning value::int as value`,
  );
  return `${day}-${String(row?.value ?? 1).padStart(5, '0')}`;
}

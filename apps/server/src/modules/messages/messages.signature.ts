/**
 * The signature of an agent's text send (client-contract §5.2): `*<name>*:\n ` before the body when the rule of
 * `signsMessages` (packages/shared) says so. The user's name and switch and the tenant's three settings are one query.
 */
import { eq, sql } from 'drizzle-orm';
import { signBody, signsMessages } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import { users } from '../users/users.tables.js';

const settingValue = (key: string) =>
  sql<string | null>`(select value from settings s where s.tenant_id = ${users.tenantId} and s.key = ${key})`;

export async function signedBody(tx: Queryable, ctx: TenantContext, body: string): Promise<string> {
  if (ctx.userId === null) return body;
  const [row] = await tx
    .select({
      name: users.name,
      configs: users.configs,
      signed: settingValue('signed'),
      userDisableSignature: settingValue('userDisableSignature'),
      agentSignature: settingValue('agentSignature'),
    })
    .from(users)
    .where(eq(users.id, ctx.userId));
  if (!row) return body;
  const own = (row.configs as { signature?: unknown } | null)?.signature;
  const signs = signsMessages({
    userSignature: typeof own === 'boolean' ? own : undefined,
    signedSetting: row.signed ?? 'disabled',
    userDisableSignatureSetting: row.userDisableSignature ?? 'disabled',
    agentSignatureSetting: row.agentSignature ?? 'enabled',
  });
  return signs ? signBody(body, row.name) : body;
}

/**
 * First start: tenant 1 (protected), its default settings, default public plans, and a superadmin from
 * SEED_SUPERADMIN_EMAIL / SEED_SUPERADMIN_PASSWORD, else with a generated strong password printed once.
 */
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { PROTECTED_TENANT_ID } from '@conversa/shared';
import type { Config } from './config.js';
import type { Database } from './platform/db/client.js';
import { withSystem } from './platform/db/tenancy.js';
import { generatePassword, hashPassword } from './platform/crypto.js';
import { users, userTenants } from './modules/users/users.tables.js';
import { insertDefaultSettings } from './modules/settings/index.js';
import { plans, tenants } from './modules/tenants/tenants.tables.js';

const DEFAULT_PLANS = [
  { name: 'Start', value: 99.9, connections: 1, users: 3, trial: 'enabled' as const, trialPeriod: 7 },
  { name: 'Pro', value: 199.9, connections: 3, users: 10, trial: 'enabled' as const, trialPeriod: 7 },
  { name: 'Business', value: 399.9, connections: 10, users: 30, trial: 'disabled' as const, trialPeriod: 0 },
];

export async function bootstrapInstallation(db: Database, config: Config, logger: Logger): Promise<void> {
  const created = await withSystem(db, 'bootstrap.seed', async (tx) => {
    const existing = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, PROTECTED_TENANT_ID));
    if (existing.length > 0) return null;
    await tx.insert(tenants).values({ id: PROTECTED_TENANT_ID, name: 'Empresa 1', maxUsers: 100, maxConnections: 100 });
    // Tenant 1 was inserted with an explicit id: move the identity past it.
    await tx.execute(sql`select setval(pg_get_serial_sequence('tenants', 'id'), (select max(id) from tenants))`);
    await insertDefaultSettings(tx, PROTECTED_TENANT_ID);
    const planCount = await tx.select({ id: plans.id }).from(plans).limit(1);
    if (planCount.length === 0) await tx.insert(plans).values(DEFAULT_PLANS);
    const email = (config.seedSuperadminEmail ?? 'superadmin@conversa.local').toLowerCase();
    const password = config.seedSuperadminPassword ?? generatePassword();
    const [user] = await tx
      .insert(users)
      .values({
        tenantId: PROTECTED_TENANT_ID,
        name: 'Super Admin',
        email,
        profile: 'superadmin',
        passwordHash: await hashPassword(password),
      })
      .returning({ id: users.id });
    await tx.insert(userTenants).values({ tenantId: PROTECTED_TENANT_ID, userId: user!.id });
    return { email, password, generated: !config.seedSuperadminPassword };
  });
  if (!created) return;
  if (created.generated) {
    // Printed once, on the first start only, to the console rather than the structured log (logs get shipped):
    // nothing stores the clear password.
    logger.warn({ email: created.email }, 'superadmin created with a generated password, printed once below');
    process.stdout.write(
      `\n  Superadmin created: ${created.email} / ${created.password}\n  (shown once; change it after logging in)\n\n`,
    );
  } else {
    logger.info({ email: created.email }, 'superadmin created');
  }
}

/** The tenant's call settings a session applies when a call arrives (service screen: reject calls, with a message). */
import { ENABLED } from '@conversa/shared';
import type { Database } from '../../../platform/db/client.js';
import { systemContext, withTenant } from '../../../platform/db/tenancy.js';
import { findSetting } from '../../settings/index.js';

export async function readCallPolicy(db: Database, tenantId: number): Promise<{ reject: boolean; message: string }> {
  return withTenant(db, systemContext(tenantId), async (tx) => ({
    reject: (await findSetting(tx, tenantId, 'rejectCalls')) === ENABLED,
    message: await findSetting(tx, tenantId, 'callRejectMessage'),
  }));
}

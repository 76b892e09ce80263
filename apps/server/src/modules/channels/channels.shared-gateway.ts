/**
 * Whether an Evolution channel's gateway is the installation's shared one (issue 22): the superadmin hands one
 * Evolution server's key to several companies as their default (`tenants.evo_token`, write-only), and whoever holds
 * that key reaches every instance on the server by name. On such a gateway a start must create its own instance
 * under a name nobody chose and never adopt an existing one (evolution.instance.ts).
 *
 * The key decides, not the URL (the same server answers under several names and addresses): a channel is on the
 * shared gateway when its key is a company default, its own company's or another's, or another company's Evolution
 * channel holds it. Only a key the company typed into its own channel and nobody else holds is its own gateway,
 * where an existing instance may be connected by its exact name. Read across tenants on the system path
 * `channels.gateway-sharing`; the answer is a yes or no, nothing of the other company leaves it.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.js';
import { withSystem } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { tenants } from '../tenants/tenants.tables.js';
import { providerKeyOf, type IdentityFacts } from './channels.identity.js';
import type { ChannelRow } from './channels.repository.js';
import { channels } from './channels.tables.js';

export async function isSharedEvolutionGateway(
  db: Database,
  row: Pick<ChannelRow, 'tenantId' | 'tokenAPI'>,
): Promise<boolean> {
  const key = row.tokenAPI;
  // No key of its own: nothing proves the gateway is the company's.
  if (!key) return true;
  return withSystem(db, 'channels.gateway-sharing', async (tx) => {
    const [byDefault] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.evoToken, key)).limit(1);
    if (byDefault) return true;
    const [byOther] = await tx
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.type, 'evo'), eq(channels.tokenAPI, key), ne(channels.tenantId, row.tenantId)))
      .limit(1);
    return Boolean(byOther);
  });
}

/**
 * Before a gateway start touches the gateway: the identity it is about to claim must not be another channel's
 * (409 ERR_CHANNEL_IDENTITY_TAKEN, nothing asked of the gateway). A Wuzapi start re-registers the user's webhook and
 * HMAC key, an own-gateway Evolution start the named instance's webhook: a start that the claim would refuse
 * afterwards must not rewire the holder's webhooks first (its messages would go to a channel that drops them). The
 * claim's unique index still decides at the end (two starts at once). Not for a start on the shared Evolution
 * gateway: its instance is a new one, whatever an older claim of the stored name says.
 */
export async function assertGatewayIdentityFree(
  db: Database,
  row: IdentityFacts & Pick<ChannelRow, 'id'>,
): Promise<void> {
  const key = providerKeyOf(row);
  if (!key) return;
  const held = await withSystem(db, 'channels.gateway-sharing', (tx) =>
    tx
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.providerKey, key), ne(channels.id, row.id)))
      .limit(1),
  );
  if (held.length > 0) throw fail('ERR_CHANNEL_IDENTITY_TAKEN');
}

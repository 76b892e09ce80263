/**
 * Evolution-only channel calls (client-contract §7.2): `POST /evo-qrcode/{wabaId}` starts the session of the
 * tenant's Evolution channel with that instance name (the body is the whole channel object, ignored) and answers its
 * session state; `POST /evo-setwebhook/{wabaId}` registers the channel's webhook at Evolution again. The instance
 * name is looked up in the caller's tenant only: another tenant's instance answers ERR_NO_WAPP_FOUND.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelSessionStateSchema } from '@conversa/shared';
import type { Database } from '../../../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../../../platform/db/tenancy.js';
import { requireProfile } from '../../../../platform/http/auth.js';
import { fail } from '../../../../platform/http/errors.js';
import { ProviderError } from '../../channels.adapter.js';
import { toCredentials, toSessionState } from '../../channels.dto.js';
import type { AdapterRegistry } from '../../channels.registry.js';
import type { ChannelRow } from '../../channels.repository.js';
import type { SessionsService } from '../../channels.sessions.js';
import { channels } from '../../channels.tables.js';
import type { EvolutionAdapter } from './evolution.adapter.js';

const tags = ['channels'];
const params = z.object({ wabaId: z.string().min(1).max(200) });
const schema = { tags, params, body: z.unknown(), response: { 200: channelSessionStateSchema } };

export function evolutionRoutes(deps: {
  db: Database;
  registry: AdapterRegistry;
  sessions: SessionsService;
  publicUrl: string;
}): FastifyPluginAsyncZod {
  async function findChannel(ctx: TenantContext, wabaId: string): Promise<ChannelRow> {
    const [row] = await withTenant(deps.db, ctx, (tx) =>
      tx
        .select()
        .from(channels)
        .where(and(eq(channels.tenantId, ctx.tenantId), eq(channels.type, 'evo'), eq(channels.wabaId, wabaId)))
        .limit(1),
    );
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    return row;
  }

  return async (app) => {
    app.post('/evo-qrcode/:wabaId', { schema }, async (request) => {
      const ctx = requireProfile(request, 'admin');
      const row = await findChannel(ctx, request.params.wabaId);
      return deps.sessions.startSession(ctx, row.id);
    });

    app.post('/evo-setwebhook/:wabaId', { schema }, async (request) => {
      const ctx = requireProfile(request, 'admin');
      const row = await findChannel(ctx, request.params.wabaId);
      const adapter = deps.registry.forType('evo') as EvolutionAdapter | undefined;
      if (!adapter) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
      try {
        await adapter.registerWebhook(toCredentials(row), `${deps.publicUrl}/api/webhooks/evo/${row.id}`);
      } catch (error) {
        if (error instanceof ProviderError) throw fail('ERR_CHANNEL_PROVIDER');
        throw error;
      }
      return toSessionState(row);
    });
  };
}

/**
 * The Wuzapi calls of client-contract §7.2: `POST /meow-qrcode/{wabaId}` starts the session of the tenant's meow
 * channel with that instance id (answers its session state: qrcode, OPENING or CONNECTED) and
 * `POST /meow-setwebhook/{wabaId}` registers the channel's signed webhook with its gateway again. Admins only, like
 * the other session calls. The client sends the whole channel as the body; only its id is read, to choose among
 * channels that share an instance id.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelSessionStateSchema } from '@conversa/shared';
import type { Database } from '../../../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../../../platform/db/tenancy.js';
import { requireProfile } from '../../../../platform/http/auth.js';
import { fail } from '../../../../platform/http/errors.js';
import { ProviderError } from '../../channels.adapter.js';
import { toCredentials } from '../../channels.dto.js';
import * as repo from '../../channels.repository.js';
import type { SessionsService } from '../../channels.sessions.js';
import { registerWuzapiWebhook } from './wuzapi.adapter.js';
import { createWuzapiClient, type WuzapiClient } from './wuzapi.client.js';

const tags = ['channels'];
const params = z.object({ wabaId: z.string().trim().min(1).max(200) });
const body = z.object({ id: z.coerce.number().int().positive().optional() }).loose().nullish();

export function wuzapiRoutes(deps: {
  db: Database;
  sessions: SessionsService;
  publicUrl: string;
  client?: WuzapiClient;
}): FastifyPluginAsyncZod {
  const client = deps.client ?? createWuzapiClient();

  async function findMeow(ctx: TenantContext, wabaId: string, id: number | undefined): Promise<repo.ChannelRow> {
    const rows = await withTenant(deps.db, ctx, (tx) => repo.listChannels(tx, ctx.tenantId));
    const matches = rows.filter((row) => row.type === 'meow' && row.wabaId === wabaId);
    const row = matches.find((r) => r.id === id) ?? matches[0];
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    return row;
  }

  return async (app) => {
    app.post(
      '/meow-qrcode/:wabaId',
      { schema: { tags, params, body, response: { 200: channelSessionStateSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'admin');
        const row = await findMeow(ctx, request.params.wabaId, request.body?.id);
        return deps.sessions.startSession(ctx, row.id);
      },
    );

    app.post(
      '/meow-setwebhook/:wabaId',
      { schema: { tags, params, body, response: { 200: z.object({ webhook: z.string() }) } } },
      async (request) => {
        const ctx = requireProfile(request, 'admin');
        const row = await findMeow(ctx, request.params.wabaId, request.body?.id);
        const webhook = `${deps.publicUrl}/api/webhooks/meow/${row.id}`;
        try {
          await registerWuzapiWebhook(client, toCredentials(row), webhook);
        } catch (error) {
          if (!(error instanceof ProviderError)) throw error;
          request.log.warn({ channelId: row.id, reason: error.message }, 'wuzapi refused the webhook');
          throw fail('ERR_CHANNEL_PROVIDER');
        }
        return { webhook };
      },
    );
  };
}

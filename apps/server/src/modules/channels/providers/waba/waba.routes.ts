/**
 * The WhatsApp Cloud API calls of client-contract §7.2 that talk to Graph on the tenant's behalf (the sends are the
 * messages module's: `messages.waba.routes.ts`):
 * - `POST /wabametaVerifyPhone`: the connection form's token, phone number id and business account id checked
 *   against Graph before the channel is saved ('Ops! Dados WABA incorretos.' = 400 ERR_WABA_DATA_INVALID);
 * - `POST /wabametaVerifyBms`: the WhatsApp Business Accounts (and numbers) the tenant's Meta token reaches;
 * - `GET /wabametaTemplate/{tokenApi}`: the channel's cached templates, synced from Graph when asked
 *   (`refresh=true`), empty or older than an hour.
 * Verification, business managers and a forced refresh are for supervisors and up (they use the tenant's secrets);
 * any staff member of the tenant reads the templates (the chat's template picker).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  wabaTemplateListResponseSchema,
  wabaTemplateParamsSchema,
  wabaTemplateQuerySchema,
  wabaVerifyBmsResponseSchema,
  wabaVerifyPhoneResponseSchema,
  wabaVerifyPhoneSchema,
  type WabaTemplateListResponse,
} from '@conversa/shared';
import type { Database } from '../../../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../../../platform/db/tenancy.js';
import { actor, profileRank, requireProfile } from '../../../../platform/http/auth.js';
import { fail } from '../../../../platform/http/errors.js';
import { readTenantTokens } from '../../../tenants/index.js';
import { ProviderError } from '../../channels.adapter.js';
import { toCredentials } from '../../channels.dto.js';
import * as repo from '../../channels.repository.js';
import {
  createWabaClient,
  graphId,
  graphVersion,
  wabaCredsOf,
  type WabaClient,
  type WabaCreds,
} from './waba.client.js';
import { graphTemplatePageSchema } from './waba.schemas.js';
import { cacheIsStale, listCachedTemplates, replaceTemplates, toTemplateDto } from './waba.templates.js';

const tags = ['channels'];

/** A Graph refusal (wrong token, unknown id) is the form's data; a Graph outage is the provider's. */
function graphFailure(error: unknown, log: FastifyBaseLogger, what: string): never {
  if (!(error instanceof ProviderError)) throw error;
  log.warn({ reason: error.message }, `waba: ${what} refused`);
  throw fail(error.permanent ? 'ERR_WABA_DATA_INVALID' : 'ERR_CHANNEL_PROVIDER');
}

/** The tenant's Meta token (business listings) and default Cloud API token; blank ones are unset. */
async function tenantTokens(db: Database, ctx: TenantContext) {
  const row = await withTenant(db, ctx, (tx) => readTenantTokens(tx, ctx.tenantId));
  return { metaToken: row.metaToken?.trim() || null, wabaToken: row.wabaToken?.trim() || null };
}

/**
 * The waba channel a template call names: its id, its phone number id, or — the reference client sends
 * `/wabametaTemplate/undefined` — the tenant's only waba channel. Another tenant's channel is not found (RLS and the
 * explicit tenant filter).
 */
async function findWabaChannel(db: Database, ctx: TenantContext, ref: string): Promise<repo.ChannelRow> {
  const rows = (await withTenant(db, ctx, (tx) => repo.listChannels(tx, ctx.tenantId))).filter(
    (row) => row.type === 'waba',
  );
  const byId = /^\d{1,15}$/.test(ref) ? rows.find((row) => row.id === Number(ref)) : undefined;
  const found =
    byId ?? rows.find((row) => row.wabaId === ref) ?? (rows.length === 1 && isUnnamed(ref) ? rows[0] : undefined);
  if (!found) throw fail('ERR_NO_WAPP_FOUND');
  return found;
}
const isUnnamed = (ref: string) => ref === 'undefined' || ref === 'null';

export function wabaRoutes(deps: { db: Database; graphUrl: string; client?: WabaClient }): FastifyPluginAsyncZod {
  const client = deps.client ?? createWabaClient({ graphUrl: deps.graphUrl });

  /** The channel's templates: the cache, synced first when forced or stale. */
  async function templatesOf(
    ctx: TenantContext,
    row: repo.ChannelRow,
    force: boolean,
    log: FastifyBaseLogger,
  ): Promise<WabaTemplateListResponse> {
    const cached = await withTenant(deps.db, ctx, (tx) => listCachedTemplates(tx, row.id));
    if (!force && !cacheIsStale(cached)) return { data: cached.map(toTemplateDto) };
    let creds: WabaCreds;
    try {
      creds = wabaCredsOf(toCredentials(row), (await tenantTokens(deps.db, ctx)).wabaToken);
    } catch (error) {
      // No token or business account id: nothing to sync from. A forced refresh says so; a read keeps the cache.
      if (force) graphFailure(error, log, 'template sync');
      return { data: cached.map(toTemplateDto) };
    }
    if (!creds.businessAccountId) {
      if (force) throw fail('ERR_WABA_DATA_INVALID');
      return { data: cached.map(toTemplateDto) };
    }
    let listed;
    try {
      listed = await client.listTemplates(creds);
    } catch (error) {
      // An outage does not empty the picker: a stale cache is still what the account had an hour ago.
      if (!force && cached.length > 0) {
        log.warn({ channelId: row.id, err: error }, 'waba: template sync failed, answering the cache');
        return { data: cached.map(toTemplateDto) };
      }
      graphFailure(error, log, 'template sync');
    }
    const synced = await withTenant(deps.db, ctx, async (tx) => {
      await replaceTemplates(tx, ctx.tenantId, row.id, listed);
      return listCachedTemplates(tx, row.id);
    });
    return { data: synced.map(toTemplateDto) };
  }

  return async (app) => {
    app.post(
      '/wabametaVerifyPhone',
      { schema: { tags, body: wabaVerifyPhoneSchema, response: { 200: wabaVerifyPhoneResponseSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'super');
        const input = request.body;
        // Secrets are write-only in the form: an existing channel's empty fields mean "the stored ones".
        const stored = input.whatsappId
          ? await withTenant(deps.db, ctx, (tx) => repo.findTenantChannel(tx, ctx.tenantId, input.whatsappId!))
          : undefined;
        if (input.whatsappId && !stored) throw fail('ERR_NO_WAPP_FOUND');
        const token = input.tokenAPI || stored?.tokenAPI || (await tenantTokens(deps.db, ctx)).wabaToken;
        const businessAccount = input.bmToken || stored?.bmToken || null;
        if (!token) throw fail('ERR_WABA_DATA_INVALID', 'tokenAPI');
        let creds: WabaCreds;
        try {
          creds = {
            token,
            phoneNumberId: graphId(input.wabaId, 'phone number id'),
            businessAccountId: businessAccount ? graphId(businessAccount, 'business account id') : null,
            version: graphVersion(input.wabaVersion || stored?.wabaVersion),
          };
        } catch {
          throw fail('ERR_WABA_DATA_INVALID');
        }
        try {
          const phone = await client.verifyPhone(creds);
          if (creds.businessAccountId) {
            // The business account must exist and be readable with this token (templates are listed under it).
            const path = `/${creds.businessAccountId}/message_templates?fields=id&limit=1`;
            await client.call(creds.token, creds.version, 'GET', path, null, graphTemplatePageSchema.partial());
          }
          return { ok: true as const, number: phone.number, verifiedName: phone.verifiedName };
        } catch (error) {
          return graphFailure(error, request.log, 'phone verification');
        }
      },
    );

    app.post(
      '/wabametaVerifyBms',
      { schema: { tags, response: { 200: wabaVerifyBmsResponseSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'super');
        const { metaToken } = await tenantTokens(deps.db, ctx);
        if (!metaToken) throw fail('ERR_META_TOKEN_MISSING');
        try {
          return { data: await client.businessAccounts(metaToken) };
        } catch (error) {
          return graphFailure(error, request.log, 'business listing');
        }
      },
    );

    app.get(
      '/wabametaTemplate/:tokenApi',
      {
        schema: {
          tags,
          params: wabaTemplateParamsSchema,
          querystring: wabaTemplateQuerySchema,
          response: { 200: wabaTemplateListResponseSchema },
        },
      },
      async (request) => {
        const ctx = actor(request);
        const force = request.query.refresh;
        // A forced sync spends the tenant's Graph quota: supervisors and up (a stale cache syncs for anyone).
        if (force && profileRank(ctx.profile) < profileRank('super')) throw fail('ERR_NO_PERMISSION');
        const row = await findWabaChannel(deps.db, ctx, request.params.tokenApi);
        return templatesOf(ctx, row, force, request.log);
      },
    );
  };
}

/**
 * `POST /fb/register-pages` and `POST /fb/logout-pages` (client-contract §7.2): connect a Messenger or Instagram
 * channel to a Facebook page the admin manages, and disconnect it. The page list is read with the user access token
 * of Facebook Login (used for that one call, never stored); the chosen page's own access token is what the channel
 * keeps (`tokenAPI`). The channel is named by id in the body and re-loaded in the caller's tenant: another tenant's
 * id, or a channel of another type, changes nothing.
 *
 * Graph calls run outside any transaction (a slow Graph must not hold a connection); the channel row is written once
 * Graph accepted the subscription, so a refusal leaves the channel as it was.
 *
 * The page list is the proof that the admin manages the page (and its Instagram account): the connect claims the
 * page or account id (channels.identity.ts) with the write. An id another channel claims, in any tenant, is refused
 * with 409 ERR_CHANNEL_IDENTITY_TAKEN before the subscription; a channel that merely names the id claims nothing.
 * The logout releases the claim.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import {
  logoutPagesResponseSchema,
  logoutPagesSchema,
  registerPagesResponseSchema,
  registerPagesSchema,
  type PageDetail,
} from '@conversa/shared';
import type { Database } from '../../../../platform/db/client.js';
import { withSystem, withTenant, type TenantContext } from '../../../../platform/db/tenancy.js';
import type { EventBus } from '../../../../platform/events/bus.js';
import { requireProfile } from '../../../../platform/http/auth.js';
import { fail } from '../../../../platform/http/errors.js';
import { ProviderError } from '../../channels.adapter.js';
import { toChannelDto, toCredentials, toSessionState } from '../../channels.dto.js';
import '../../channels.events.js';
import type { AdapterRegistry } from '../../channels.registry.js';
import { IDENTITY_RELEASE, isProviderKeyConflict, providerKeyOf } from '../../channels.identity.js';
import * as repo from '../../channels.repository.js';
import { channels } from '../../channels.tables.js';
import type { MetaMessagingAdapter } from './meta-messaging.adapter.js';
import { graphId } from './meta-messaging.client.js';
import type { MetaMessagingType } from './meta-messaging.parse.js';
import { pageAccountsSchema, type PageAccount } from './meta-messaging.schemas.js';

const tags = ['channels'];
const isMetaMessaging = (type: string): type is MetaMessagingType => type === 'messenger' || type === 'instagram';

/** The page this channel connects to: the one it names already (page or Instagram id), else the first that fits. */
function choosePage(type: MetaMessagingType, wabaId: string | null, pages: PageAccount[]): PageAccount | undefined {
  const fitting = type === 'instagram' ? pages.filter((page) => page.instagram_business_account) : pages;
  const named = wabaId
    ? fitting.find((page) => page.id === wabaId || page.instagram_business_account?.id === wabaId)
    : undefined;
  return named ?? fitting[0];
}

/** The channel fields of a connected page (decisions of issue 15: field mapping of Meta channels). */
function connectedValues(type: MetaMessagingType, page: PageAccount): Partial<repo.ChannelValues> {
  const instagram = page.instagram_business_account ?? null;
  const providerState = { pageId: page.id, pageName: page.name };
  if (type === 'messenger') {
    return { wabaId: page.id, tokenAPI: page.access_token, fbObject: { id: page.id, name: page.name }, providerState };
  }
  return {
    wabaId: instagram!.id,
    tokenAPI: page.access_token,
    instagramUser: instagram!.username ?? null,
    fbObject: {
      pageId: page.id,
      pageName: page.name,
      instagramId: instagram!.id,
      username: instagram!.username ?? null,
    },
    providerState,
  };
}

export function metaPagesRoutes(deps: {
  db: Database;
  events: EventBus;
  registry: AdapterRegistry;
  logger: Logger;
  /** PUBLIC_URL (the Meta channels' webhook address in their DTO). */
  publicUrl: string;
}): FastifyPluginAsyncZod {
  const { db, events } = deps;

  async function load(ctx: TenantContext, id: number) {
    const row = await withTenant(db, ctx, (tx) => repo.findChannel(tx, ctx.tenantId, id));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    if (!isMetaMessaging(row.type)) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    const adapter = deps.registry.forType(row.type) as MetaMessagingAdapter | undefined;
    if (!adapter) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    return { row, type: row.type, adapter };
  }

  async function save(ctx: TenantContext, id: number, patch: Partial<repo.ChannelValues>) {
    const row = await withTenant(db, ctx, (tx) => repo.updateChannel(tx, ctx.tenantId, id, patch));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    events.publish('channels.session_changed', { tenantId: ctx.tenantId, session: toSessionState(row) });
    events.publish('channels.changed', { tenantId: ctx.tenantId, channel: toChannelDto(row, deps.publicUrl) });
    return row;
  }

  /**
   * Webhooks are routed by the page / account claim across tenants (app-level URL): one channel per id. This is the
   * webhook routing's own lookup (the claim), so it runs under that system path; asked only once Graph proved the
   * admin manages the page, so it tells nothing about ids the caller does not own.
   */
  async function claimedElsewhere(providerKey: string, channelId: number): Promise<boolean> {
    const [other] = await withSystem(db, 'channels.webhook-lookup', (tx) =>
      tx
        .select({ id: channels.id })
        .from(channels)
        .where(and(eq(channels.providerKey, providerKey), ne(channels.id, channelId)))
        .limit(1),
    );
    return Boolean(other);
  }

  /** A Graph refusal answers 502 ERR_CHANNEL_PROVIDER (logged without tokens: they never enter messages). */
  async function graphCall<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      deps.logger.warn({ reason: error.message }, `fb pages: ${what} refused by Graph`);
      throw fail('ERR_CHANNEL_PROVIDER');
    }
  }

  return async (app) => {
    app.post(
      '/fb/register-pages',
      { schema: { tags, body: registerPagesSchema, response: { 200: registerPagesResponseSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'admin');
        const { whatsapp, accountId, userToken } = request.body;
        const { row, type, adapter } = await load(ctx, whatsapp);
        const graph = adapter.graph(row);
        const fields = 'id,name,access_token,instagram_business_account{id,username}';
        const accounts = await graphCall('page list', () =>
          graph.call(
            'GET',
            `${graphId(accountId, 'account id')}/accounts`,
            { token: userToken, query: { fields, limit: '100' } },
            pageAccountsSchema,
          ),
        );
        const page = choosePage(type, row.wabaId, accounts.data);
        if (!page) throw fail('ERR_VALIDATION', 'accountId');
        const values = connectedValues(type, page);
        const providerKey = providerKeyOf({ ...row, ...values, type })!;
        if (await claimedElsewhere(providerKey, row.id)) throw fail('ERR_CHANNEL_IDENTITY_TAKEN');
        await graphCall('subscription', () => adapter.subscribe(page.id, page.access_token, row.wabaVersion));
        let saved: repo.ChannelRow;
        try {
          saved = await save(ctx, row.id, { ...values, status: 'CONNECTED', retries: 0, qrcode: null, providerKey });
        } catch (error) {
          // Another channel claimed it between the check and the write.
          if (isProviderKeyConflict(error)) throw fail('ERR_CHANNEL_IDENTITY_TAKEN');
          throw error;
        }
        const pageDetails: PageDetail[] = accounts.data.map((p) => ({
          id: p.id,
          name: p.name,
          instagramId: p.instagram_business_account?.id ?? null,
        }));
        return { page_details: pageDetails, channel: toChannelDto(saved, deps.publicUrl) };
      },
    );

    app.post(
      '/fb/logout-pages',
      { schema: { tags, body: logoutPagesSchema, response: { 200: logoutPagesResponseSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'admin');
        const { row, adapter } = await load(ctx, request.body.whatsapp);
        if (row.tokenAPI) {
          try {
            await adapter.stop(toCredentials(row));
          } catch (error) {
            if (!(error instanceof ProviderError)) throw error;
            deps.logger.warn({ channelId: row.id, reason: error.message }, 'fb pages: unsubscribe refused by Graph');
            // A revoked token or a removed page cannot be unsubscribed and needs not be: the channel still disconnects.
            if (!error.permanent) throw fail('ERR_CHANNEL_PROVIDER');
          }
        }
        await save(ctx, row.id, { ...IDENTITY_RELEASE, tokenAPI: null });
        return { ok: true as const };
      },
    );
  };
}

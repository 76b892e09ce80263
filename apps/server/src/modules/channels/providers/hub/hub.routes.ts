/**
 * The hub calls of client-contract §7.2 and the hub's webhook intake.
 *
 * - `GET /hub-channel/` lists the hub account's channels (the tenant's `hubToken`) and which channel of ours runs each;
 *   `POST /hub-channel/ { id, name, channel }` runs one as a channel of ours (type `hub` for WhatsApp, `hub_<channel>`
 *   otherwise) and subscribes its webhook; `POST /hub-channel-setagain/ { whatsappId }` subscribes it again. Admins.
 * - `POST /hub-template/ { whatsappId }` lists a WhatsApp hub channel's templates. Any staff of the tenant.
 * - `POST /webhooks/{hub type}/{channelId}?token=...`: the hub signs nothing, so the subscribed URL carries a token
 *   derived from the channel's secret; it is handed to the intake as a header (any such header sent by the caller is
 *   dropped first) and checked by the adapter like every provider's credential.
 *
 * A missing hub token answers 400 ERR_HUB_TOKEN_MISSING; the hub refusing the token or the data, 400
 * ERR_HUB_DATA_INVALID; the hub failing (5xx, network), 502 ERR_CHANNEL_PROVIDER; a hub channel another channel
 * claims (another company sharing the hub account runs it), 409 ERR_CHANNEL_IDENTITY_TAKEN before any subscription.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  channelDtoSchema,
  channelInputSchema,
  HUB_CHANNEL_TYPES,
  hubChannelCreateInputSchema,
  hubChannelListResponseSchema,
  hubChannelTypeOf,
  hubOkResponseSchema,
  hubTemplateSchema,
  hubTemplatesResponseSchema,
  hubWhatsappIdInputSchema,
  isHubChannelType,
  type HubTemplate,
} from '@conversa/shared';
import type { Database } from '../../../../platform/db/client.js';
import { withSystem, withTenant, type TenantContext } from '../../../../platform/db/tenancy.js';
import { actor, requireProfile } from '../../../../platform/http/auth.js';
import { fail } from '../../../../platform/http/errors.js';
import { readTenantTokens } from '../../../tenants/index.js';
import { ProviderError } from '../../channels.adapter.js';
import { providerKeyOf } from '../../channels.identity.js';
import type { WebhookIntake } from '../../channels.intake.js';
import * as repo from '../../channels.repository.js';
import type { ChannelsService } from '../../channels.service.js';
import type { SessionsService } from '../../channels.sessions.js';
import { channels } from '../../channels.tables.js';
import { HUB_WEBHOOK_TOKEN_HEADER } from './hub.adapter.js';
import { createHubClient, type HubClient } from './hub.client.js';

const tags = ['channels'];

/** The hub's answer to a call made for the admin, as an error of the catalogue. */
export function hubFailure(error: unknown): unknown {
  if (!(error instanceof ProviderError)) return error;
  const refused = error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429;
  return fail(refused || error.permanent ? 'ERR_HUB_DATA_INVALID' : 'ERR_CHANNEL_PROVIDER');
}

export function hubRoutes(deps: {
  db: Database;
  service: ChannelsService;
  sessions: SessionsService;
  intake: WebhookIntake;
  hubApiUrl: string;
  client?: HubClient;
}): FastifyPluginAsyncZod {
  const client = deps.client ?? createHubClient(deps.hubApiUrl);

  async function tenantToken(ctx: TenantContext): Promise<string> {
    const { hubToken } = await withTenant(deps.db, ctx, (tx) => readTenantTokens(tx, ctx.tenantId));
    if (!hubToken) throw fail('ERR_HUB_TOKEN_MISSING');
    return hubToken;
  }

  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw hubFailure(error);
    }
  }

  /** A hub channel of the caller's tenant (another tenant's id, or another type, is not found). */
  async function hubChannel(ctx: TenantContext, id: number): Promise<repo.ChannelRow> {
    const row = await withTenant(deps.db, ctx, (tx) => repo.findChannel(tx, ctx.tenantId, id));
    if (!row || !isHubChannelType(row.type)) throw fail('ERR_NO_WAPP_FOUND');
    return row;
  }

  /**
   * Whether another channel (any tenant) holds the claim of this hub channel (`hub:<id>`, channels.identity.ts).
   * Asked before subscribing: a start whose claim the database then refuses would leave its own subscription at the
   * hub, posting the claimant's customers to a channel that may not have them. Tenants sharing a hub token both see
   * the hub channel in their account, so the answer tells the caller nothing its token does not. The webhook
   * routing's own lookup (the claim), so it runs under that system path.
   */
  async function claimedElsewhere(type: string, hubChannelId: string, channelId: number | null): Promise<boolean> {
    const key = providerKeyOf({
      type: type as repo.ChannelRow['type'],
      wabaId: hubChannelId,
      providerState: {},
      tokenAPI: null,
      bmToken: null,
      metaAppSecret: null,
      tokenTelegram: null,
      instagramKey: null,
      remotePath: null,
    });
    if (!key) return false;
    const [other] = await withSystem(deps.db, 'channels.webhook-lookup', (tx) =>
      tx
        .select({ id: channels.id })
        .from(channels)
        .where(
          channelId === null
            ? eq(channels.providerKey, key)
            : and(eq(channels.providerKey, key), ne(channels.id, channelId)),
        )
        .limit(1),
    );
    return Boolean(other);
  }

  /** The channel's own token when it has one, else the tenant's. */
  const tokenFor = async (ctx: TenantContext, row: repo.ChannelRow) => row.tokenAPI || (await tenantToken(ctx));

  return async (app) => {
    app.get('/hub-channel', { schema: { tags, response: { 200: hubChannelListResponseSchema } } }, async (request) => {
      const ctx = requireProfile(request, 'admin');
      const token = await tenantToken(ctx);
      const account = await call(() => client.listChannels(token));
      const ours = (await withTenant(deps.db, ctx, (tx) => repo.listChannels(tx, ctx.tenantId))).filter((row) =>
        isHubChannelType(row.type),
      );
      const data = account.map((channel) => {
        const row = ours.find((r) => r.wabaId === channel.id);
        const connected = row?.status === 'CONNECTED';
        return { id: channel.id, name: channel.name, channel: channel.channel, connected, whatsappId: row?.id ?? null };
      });
      return { status: 'ok' as const, data };
    });

    app.post(
      '/hub-channel',
      {
        schema: { tags, body: hubChannelCreateInputSchema, response: { 200: z.object({ data: channelDtoSchema }) } },
      },
      async (request) => {
        const ctx = requireProfile(request, 'admin');
        const type = hubChannelTypeOf(request.body.channel);
        if (!type) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED', 'channel');
        const token = await tenantToken(ctx);
        const found = (await call(() => client.listChannels(token))).find((c) => c.id === request.body.id);
        // Only a channel of the tenant's own hub account, under the network it really is.
        if (!found || hubChannelTypeOf(found.channel) !== type) throw fail('ERR_HUB_DATA_INVALID');
        const existing = await withTenant(deps.db, ctx, (tx) => repo.listChannels(tx, ctx.tenantId));
        if (existing.some((row) => isHubChannelType(row.type) && row.wabaId === found.id)) {
          throw fail('ERR_VALIDATION', 'id');
        }
        // Another company sharing the hub account runs it: nothing is created, nothing subscribed.
        if (await claimedElsewhere(type, found.id, null)) throw fail('ERR_CHANNEL_IDENTITY_TAKEN');
        const input = channelInputSchema.parse({ name: request.body.name, type, wabaId: found.id });
        const created = await deps.service.createChannel(ctx, input);
        try {
          await deps.sessions.startSession(ctx, created.id);
        } catch (error) {
          // No half-made channel: the subscription failed, so the channel goes again.
          await deps.service.deleteChannel(ctx, created.id).catch(() => undefined);
          throw error;
        }
        return { data: await deps.service.getChannel(ctx, created.id) };
      },
    );

    app.post(
      '/hub-channel-setagain',
      { schema: { tags, body: hubWhatsappIdInputSchema, response: { 200: hubOkResponseSchema } } },
      async (request) => {
        const ctx = requireProfile(request, 'admin');
        const row = await hubChannel(ctx, request.body.whatsappId);
        await tokenFor(ctx, row);
        if (row.wabaId && (await claimedElsewhere(row.type, row.wabaId, row.id))) {
          throw fail('ERR_CHANNEL_IDENTITY_TAKEN');
        }
        // A new subscription replaces the old one (the adapter's start); the hub's refusal answers ERR_CHANNEL_PROVIDER.
        await deps.sessions.startSession(ctx, row.id);
        return { ok: true as const };
      },
    );

    app.post(
      '/hub-template',
      { schema: { tags, body: hubWhatsappIdInputSchema, response: { 200: hubTemplatesResponseSchema } } },
      async (request) => {
        const ctx = actor(request);
        const row = await hubChannel(ctx, request.body.whatsappId);
        if (row.type !== 'hub' || !row.wabaId) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
        const token = await tokenFor(ctx, row);
        const listed = await call(() => client.listTemplates(token, row.wabaId!));
        // A template the hub lists in another shape is left out rather than failing the whole list.
        const data = listed.flatMap((item): HubTemplate[] => {
          const parsed = hubTemplateSchema.safeParse(item);
          return parsed.success ? [parsed.data] : [];
        });
        return { data: { data } };
      },
    );

    const webhookParams = z.object({ channelId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
    const webhookQuery = z.object({ token: z.string().max(200).optional() }).loose();
    const webhookResponse = z.object({ ok: z.literal(true), received: z.number(), ignored: z.boolean() });
    for (const type of HUB_CHANNEL_TYPES) {
      app.post(
        `/webhooks/${type}/:channelId`,
        {
          config: { public: true },
          schema: {
            tags: ['webhooks'],
            params: webhookParams,
            querystring: webhookQuery,
            body: z.unknown(),
            response: { 200: webhookResponse },
          },
        },
        async (request) => {
          const headers = { ...request.headers };
          delete headers[HUB_WEBHOOK_TOKEN_HEADER];
          if (request.query.token) headers[HUB_WEBHOOK_TOKEN_HEADER] = request.query.token;
          const result = await deps.intake.receive(type, request.params.channelId, { headers, body: request.body });
          return { ok: true as const, ...result };
        },
      );
    }
  };
}

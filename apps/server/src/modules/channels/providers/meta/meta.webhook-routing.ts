/**
 * Meta's app-level webhook (`POST /api/webhooks/meta`): one URL per Meta app carries every number, page and Instagram
 * account the app is subscribed to. Each part is routed to its channel by the provider id Meta puts in it
 * (decisions.md): `whatsapp_business_account` changes by `value.metadata.phone_number_id` to the waba channel whose
 * `wabaId` it is, `page` entries by `entry.id` to the messenger channel, `instagram` entries by `entry.id` to the
 * instagram channel. The channel is found across tenants (system path `channels.webhook-lookup`) by its claim
 * (`provider_key`, unique: channels.identity.ts), which only a start that proved the channel's token owns the id
 * writes; typing someone else's id into a channel claims nothing. The one claimant takes the part when it is
 * connected and switched on. Any other connected channel with the same id (rows from before the claim) makes the id
 * ambiguous: the part is refused (ignored, logged), never given to one of them.
 *
 * Signature: accepted when signed with the installation's META_APP_SECRET, or, per target channel, with that
 * channel's own `metaAppSecret`; one target that fails makes the whole POST 401 and nothing is stored. Every part is
 * parsed before anything is stored, so a malformed part stores nothing either. Parts of unknown ids are acknowledged
 * (Meta would resend them forever) and counted as ignored.
 */
import { and, asc, eq, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z, ZodError } from 'zod';
import type { ChannelType } from '@conversa/shared';
import type { Database } from '../../../../platform/db/client.js';
import { withSystem } from '../../../../platform/db/tenancy.js';
import type { EventBus } from '../../../../platform/events/bus.js';
import { fail } from '../../../../platform/http/errors.js';
import type { InboundEvent, WebhookRequest } from '../../channels.adapter.js';
import type { WebhookIntake } from '../../channels.intake.js';
import type { AdapterRegistry } from '../../channels.registry.js';
import type { ChannelRow } from '../../channels.repository.js';
import { channels } from '../../channels.tables.js';
import { verifyMetaSignature } from './meta.signature.js';

const OBJECT_TYPES = { whatsapp_business_account: 'waba', page: 'messenger', instagram: 'instagram' } as const;

const envelopeSchema = z.object({
  object: z.enum(['whatsapp_business_account', 'page', 'instagram']),
  entry: z
    .array(
      z
        .object({
          id: z.union([z.string(), z.number()]).transform(String),
          changes: z
            .array(z.object({ field: z.string().max(100), value: z.unknown() }))
            .max(100)
            .optional(),
        })
        .passthrough(),
    )
    .max(100),
});

/** How long a provider id's channel is reused (like the intake's channel rows; changes here drop it at once). */
const ROUTE_TTL_MS = 5_000;
/** Most provider ids kept (unknown ids count too: a flood of made-up ids must not grow the process). */
const ROUTE_CACHE_MAX = 10_000;
/** What a signature header looks like; anything else is refused before any channel is looked up. */
const SIGNATURE_SHAPE = /^sha256=[0-9a-f]{64}$/i;
const MAX_PROVIDER_ID = 64;

export interface MetaRouteResult {
  ok: true;
  /** Events handed to ingestion. */
  received: number;
  /** Parts whose id no channel here has (or whose channel is switched off). */
  ignored: number;
}

interface Target {
  type: ChannelType;
  providerId: string;
  /** The part of the body for this channel, in Meta's own format (one object, its entries). */
  body: { object: string; entry: unknown[] };
}

/** Splits a body into one part per target channel; waba entries split further per change (one per number). */
function targetsOf(body: unknown): Target[] {
  const envelope = envelopeSchema.parse(body);
  const type = OBJECT_TYPES[envelope.object];
  const targets = new Map<string, Target>();
  const add = (providerId: string, entry: unknown) => {
    const key = providerId.slice(0, MAX_PROVIDER_ID);
    const target = targets.get(key) ?? { type, providerId: key, body: { object: envelope.object, entry: [] } };
    target.body.entry.push(entry);
    targets.set(key, target);
  };
  for (const entry of envelope.entry) {
    if (type !== 'waba') {
      add(entry.id, entry);
      continue;
    }
    for (const change of entry.changes ?? []) {
      const metadata = (change.value as { metadata?: { phone_number_id?: unknown } } | null)?.metadata;
      const phoneNumberId = metadata?.phone_number_id;
      // Changes without a number (account or template updates) concern no conversation.
      if (typeof phoneNumberId !== 'string' || !phoneNumberId) continue;
      add(phoneNumberId, { ...entry, changes: [change] });
    }
  }
  return [...targets.values()];
}

export function createMetaWebhookRouter(deps: {
  db: Database;
  events: EventBus;
  registry: AdapterRegistry;
  intake: WebhookIntake;
  appSecret: string | null | undefined;
  logger?: Pick<Logger, 'warn'>;
  /** Tests shrink it. */
  routeCacheMax?: number;
}) {
  const { db, registry, intake } = deps;
  const routeCacheMax = deps.routeCacheMax ?? ROUTE_CACHE_MAX;
  const routes = new Map<string, { row: ChannelRow | null; until: number }>();
  const drop = () => routes.clear();
  deps.events.subscribe('channels.changed', drop);
  deps.events.subscribe('channels.deleted', drop);
  deps.events.subscribe('channels.session_changed', drop);

  async function channelFor(type: ChannelType, providerId: string): Promise<ChannelRow | null> {
    const key = `${type}:${providerId}`;
    const kept = routes.get(key);
    if (kept && kept.until > Date.now()) return kept.row;
    // The claimant, and any connected row that names the id without claiming it (two rows are enough to refuse).
    const rows = await withSystem(db, 'channels.webhook-lookup', (tx) =>
      tx
        .select()
        .from(channels)
        .where(
          or(
            eq(channels.providerKey, key),
            and(eq(channels.type, type), eq(channels.wabaId, providerId), eq(channels.status, 'CONNECTED')),
          ),
        )
        .orderBy(asc(channels.id))
        .limit(2),
    );
    const [claimant] = rows;
    if (rows.length > 1) {
      deps.logger?.warn(
        { providerKey: key, channelIds: rows.map((row) => row.id) },
        'meta webhook: several channels answer to this provider id; refused',
      );
    }
    const row =
      rows.length === 1 && claimant!.providerKey === key && claimant!.isActive && claimant!.status === 'CONNECTED'
        ? claimant!
        : null;
    if (routes.size >= routeCacheMax) routes.clear();
    routes.set(key, { row, until: Date.now() + ROUTE_TTL_MS });
    return row;
  }

  return {
    /** How many provider ids are cached (tests). */
    cachedRoutes: () => routes.size,
    async receive(request: WebhookRequest): Promise<MetaRouteResult> {
      const header = request.headers['x-hub-signature-256'];
      // No signature at all: nothing to look up channels for.
      if (typeof header !== 'string' || !SIGNATURE_SHAPE.test(header)) throw fail('ERR_WEBHOOK_UNAUTHORIZED');
      const appSigned = verifyMetaSignature(request.rawBody, header, [deps.appSecret]);
      let targets: Target[];
      try {
        targets = targetsOf(request.body);
      } catch (error) {
        // Without the app's signature a body that names no channel cannot be authenticated: unauthorised first.
        if (!appSigned) throw fail('ERR_WEBHOOK_UNAUTHORIZED');
        if (error instanceof ZodError) throw fail('ERR_VALIDATION', 'body');
        throw error;
      }
      const found: { row: ChannelRow; events: InboundEvent[] }[] = [];
      let ignored = 0;
      const rows = await Promise.all(targets.map((t) => channelFor(t.type, t.providerId)));
      const pending: { row: ChannelRow; target: Target }[] = [];
      targets.forEach((target, i) => {
        const row = rows[i];
        if (!row || !registry.forType(target.type)) ignored++;
        else pending.push({ row, target });
      });
      // Signed with the app's secret, or each target with its own channel's secret; nothing known: only the app's.
      const signed =
        appSigned ||
        (pending.length > 0 &&
          pending.every(({ row }) => verifyMetaSignature(request.rawBody, header, [row.metaAppSecret])));
      if (!signed) throw fail('ERR_WEBHOOK_UNAUTHORIZED');
      for (const { row, target } of pending) {
        found.push({ row, events: intake.parse(registry.forType(target.type)!, row, target.body) });
      }
      let received = 0;
      for (const { row, events } of found) {
        const result = await intake.deliver(registry.forType(row.type as ChannelType)!, row, events);
        received += result.received;
        if (result.ignored) ignored++;
      }
      return { ok: true, received, ignored };
    },
  };
}

export type MetaWebhookRouter = ReturnType<typeof createMetaWebhookRouter>;

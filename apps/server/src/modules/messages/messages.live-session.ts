/**
 * What every live WhatsApp operation over HTTP (messages.live.ts) shares: which channel types have a live session,
 * the session's failures as catalogue codes, the tenant's connected live channels, and the deps the operations take.
 */
import { and, desc, eq, max } from 'drizzle-orm';
import type { ErrorCode } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import {
  LIVE_CHANNEL_TYPES,
  LiveOpUnsupportedError,
  ProviderError,
  SessionNotRunningError,
  STATEFUL_CHANNEL_TYPES,
  type ChannelRow,
  type LiveOps,
} from '../channels/index.js';
import { channels } from '../channels/channels.tables.js';
import { contacts } from '../contacts/contacts.tables.js';
import type { PipelineDeps } from './messages.pipeline.js';

/** What the live operations use: the send pipeline and the channels module's live operations. */
export interface LiveDeps {
  pipeline: PipelineDeps;
  ops: () => LiveOps;
}

const STATEFUL: readonly string[] = STATEFUL_CHANNEL_TYPES;
export const isStatefulType = (type: string): boolean => STATEFUL.includes(type);
const LIVE: readonly string[] = LIVE_CHANNEL_TYPES;
/** A channel with a WhatsApp session's live operations: stateful sessions and gateways. */
export const isLiveType = (type: string): boolean => LIVE.includes(type);

/** Contacts written per transaction by a sync. */
export const SYNC_BATCH = 500;

/** A session's failure as the catalogue code the caller sees; `refused` for the provider's own refusal. */
export function sessionFailure(error: unknown, refused: ErrorCode): unknown {
  if (error instanceof LiveOpUnsupportedError) return fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
  if (error instanceof SessionNotRunningError) return fail('ERR_WAPP_NOT_INITIALIZED');
  if (error instanceof ProviderError) return fail(refused);
  return error;
}

export async function onSession<T>(work: () => Promise<T>, refused: ErrorCode = 'ERR_CHANNEL_PROVIDER'): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw sessionFailure(error, refused);
  }
}

/** The tenant's channels with live operations that are connected now, the default one first. */
export async function connectedChannels(tx: Tx, ctx: TenantContext): Promise<ChannelRow[]> {
  const rows = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, ctx.tenantId), eq(channels.status, 'CONNECTED')))
    .orderBy(desc(channels.isDefault), channels.id);
  return rows.filter((row) => isLiveType(row.type));
}

/** The highest contact id now: rows above it after an upsert were made by it. */
export async function maxContactId(tx: Tx, ctx: TenantContext): Promise<number> {
  const [row] = await tx
    .select({ id: max(contacts.id) })
    .from(contacts)
    .where(eq(contacts.tenantId, ctx.tenantId));
  return Number(row?.id ?? 0);
}

/**
 * The file of a mass-sending batch named by URL (`mediaUrl`, or `voiceUrl` for a voice note): fetched once, when the
 * batch is accepted, into the tenant's media store (charged to its quota), so every recipient gets the same stored
 * bytes and a URL that does not answer is refused at once, not found out at each send.
 *
 * Our own public file address (`{PUBLIC_URL}/api/public/{tenantId}/{media}`, a quick message's file: existing clients
 * send quick-message media this way, client-contract §8) is read from the store, never fetched over the network, and
 * only the caller's own tenant's. Any other URL goes through the outbound policy (ARCHITECTURE §4: public addresses
 * only, size and time limits), so a tenant can never make the server read its own network.
 */
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { allowedMediaMime, FileTypeRejectedError } from '../../platform/http/multipart.js';
import { OutboundError, type OutboundFetch } from '../../platform/net/safe-fetch.js';
import { newMediaKey, readAll, type MediaStore } from '../../platform/storage/media-store.js';
import { quickMessages } from '../quick-messages/quick-messages.tables.js';
import type { CampaignMedia } from './campaigns.service.js';

export interface BulkMediaDeps {
  db: Database;
  store: MediaStore;
  outbound: OutboundFetch;
  publicUrl: string;
  maxBytes: number;
}

export const BULK_FETCH_TIMEOUT_MS = 30_000;

/** `/api/public/{tenantId}/{media}` (or the `/public/` redirect) on our own address: the tenant and the name. */
export function ownPublicFile(url: URL, publicUrl: string): { tenantId: number; media: string } | null {
  const own = new URL(publicUrl);
  if (url.origin !== own.origin) return null;
  const match = /^\/(?:api\/)?public\/(\d{1,15})\/([A-Za-z0-9._-]{1,200})$/.exec(url.pathname);
  return match ? { tenantId: Number(match[1]), media: match[2]! } : null;
}

const essence = (type: string | undefined): string => (type ?? '').split(';')[0]!.trim().toLowerCase();

/** Stores the URL's file for the batch; `field` names the form field a refusal points at. */
export async function storeBulkMedia(
  deps: BulkMediaDeps,
  ctx: TenantContext & { tenantId: number },
  raw: string,
  field: 'mediaUrl' | 'voiceUrl',
): Promise<CampaignMedia> {
  const url = new URL(raw);
  const voice = field === 'voiceUrl';
  if (voice && !url.pathname.toLowerCase().endsWith('.ogg')) throw fail('ERR_VALIDATION', field);
  const name = path.posix.basename(url.pathname) || 'file';
  const own = ownPublicFile(url, deps.publicUrl);
  let bytes: Buffer;
  let mime: string;
  if (own) {
    // Another tenant's address is not found, exactly as an unknown name.
    const row =
      own.tenantId === ctx.tenantId
        ? await withTenant(deps.db, ctx, async (tx) => {
            const [found] = await tx
              .select({ key: quickMessages.mediaKey, type: quickMessages.mediaType })
              .from(quickMessages)
              .where(and(eq(quickMessages.tenantId, ctx.tenantId), eq(quickMessages.media, own.media)));
            return found;
          })
        : undefined;
    const stored = row?.key ? await deps.store.get(row.key) : null;
    if (!stored) throw fail('ERR_VALIDATION', field);
    bytes = await readAll(stored.stream);
    mime = essence(row?.type ?? undefined);
  } else {
    try {
      const res = await deps.outbound(url, { maxBytes: deps.maxBytes, timeoutMs: BULK_FETCH_TIMEOUT_MS });
      if (!res.ok) throw fail('ERR_VALIDATION', field);
      bytes = res.body;
      mime = essence(res.headers['content-type']);
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'too-big') throw fail('ERR_PAYLOAD_TOO_LARGE', field);
      if (error instanceof OutboundError) throw fail('ERR_VALIDATION', field);
      throw error;
    }
  }
  // A voice note is Opus in Ogg whatever a server labels it; anything else must be a type chat media may carry.
  if (voice && !mime.startsWith('audio/')) mime = 'audio/ogg';
  if (!mime || !allowedMediaMime(mime)) throw new FileTypeRejectedError(field);
  const key = newMediaKey(ctx.tenantId, name);
  const { size } = await deps.store.put(key, bytes, mime);
  return { key, name, mime, size };
}

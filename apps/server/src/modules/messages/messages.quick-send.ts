/**
 * Sending a stored quick message into a ticket (POST /messages/{ticketId} with `quickMessageId`): its file is copied
 * inside the media store under a new key (charged to the tenant's quota like an upload) so the message and the quick
 * message keep their own bytes, then sent as media (a recorded voice note as ptt) with the caption the client
 * filled in, or the quick message's own text. A quick message without a file sends its text.
 */
import { sendQuickMessageSchema, type SendQuickMessage } from '@conversa/shared';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { newMediaKey } from '../../platform/storage/media-store.js';
import { findQuickMessageRow } from '../quick-messages/index.js';
import type { PipelineDeps } from './messages.pipeline.js';
import type { OutboundValues } from './messages.send.types.js';
import { mediaTypeFor } from './messages.upload.js';

/** True for a JSON body naming a quick message (any value: a bad one must fail, not fall back to a text send). */
export const isQuickSend = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && 'quickMessageId' in body;

export function parseQuickSend(body: unknown): SendQuickMessage {
  const parsed = sendQuickMessageSchema.safeParse(body);
  if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'quickMessageId'));
  return parsed.data;
}

/** The outbound values of a quick message: its file copied to a new key (the caller owns that copy). */
export async function quickMessageOutbound(
  deps: Pick<PipelineDeps, 'db' | 'store'>,
  ctx: AuthedContext,
  input: SendQuickMessage,
): Promise<OutboundValues> {
  const row = await withTenant(deps.db, ctx, (tx) => findQuickMessageRow(tx, ctx.tenantId, input.quickMessageId));
  if (!row?.isActive) throw fail('ERR_NO_FAST_REPLY_FOUND');
  const body = input.body?.trim() ? input.body : row.message;
  const base = { body, quotedMsgId: null, idFront: input.idFront ?? null, sendType: null };
  if (!row.mediaKey || !row.media) {
    if (!body.trim()) throw fail('ERR_VALIDATION', 'body');
    return { ...base, media: null };
  }
  const found = await deps.store.get(row.mediaKey);
  if (!found) throw fail('ERR_NO_FAST_REPLY_FOUND');
  const key = newMediaKey(ctx.tenantId, row.media);
  const mime = row.mediaType ?? 'application/octet-stream';
  const { size } = await deps.store.put(key, found.stream, mime);
  const mediaType = row.voice === 'enabled' ? 'ptt' : mediaTypeFor(mime, row.media, false);
  return { ...base, media: { key, name: row.media, mime, size, mediaType, isSticker: false } };
}

/**
 * The cap on stored message text (MESSAGE_BODY_MAX_LENGTH, packages/shared): one rule for every body that enters the
 * database. Agents' sends and edits past it are refused by their schemas (ERR_VALIDATION). A provider's inbound
 * text is what a customer wrote and cannot be refused: past the cap, the message stores the cap's worth and the whole
 * text goes into the media store as a UTF-8 `.txt` file on the same message (its `mediaUrl`, served as a download),
 * so nothing is lost and no screen or list ever holds more than the cap. WhatsApp allows 65,536 characters; a
 * 60,000-character `~a ~a ...` is how one customer froze an agent's tab.
 *
 * Only a text message has the media slot free. A caption or an edit past the cap (providers limit captions to about
 * 1,024 characters and edits like messages, so only a forged payload gets there) is stored cut, and the cut logged.
 */
import { MESSAGE_BODY_MAX_LENGTH } from '@conversa/shared';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import { MediaQuotaExceededError } from '../../platform/storage/media-quota.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import type { MessageRow } from './messages.repository.js';
import { messages } from './messages.tables.js';

export { MESSAGE_BODY_MAX_LENGTH };

/** The name the whole text is stored and downloaded under. */
export const FULL_TEXT_FILE_NAME = 'mensagem-completa.txt';
export const FULL_TEXT_MIME = 'text/plain; charset=utf-8';

export const bodyOverflows = (body: string): boolean => body.length > MESSAGE_BODY_MAX_LENGTH;

/** The body as stored: at most the cap, never ending in half of a surrogate pair (an emoji cut in two). */
export function capBody(body: string): string {
  if (!bodyOverflows(body)) return body;
  const end = MESSAGE_BODY_MAX_LENGTH;
  const last = body.charCodeAt(end - 1);
  return body.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/** The whole text of a capped message, in the store; `refused` when the tenant's media quota had no room for it. */
export type FullTextFile = { key: string; size: number } | { refused: 'ERR_MEDIA_QUOTA_EXCEEDED' };

/**
 * Stores the whole text before the message's transaction (a file write does not belong inside one); the caller
 * deletes it again when the message turns out not stored (a replay, a rollback). A full quota is not an error of the
 * message: it is stored cut, its file marked failed, as a provider download past the quota is.
 */
export async function storeFullText(store: MediaStore, tenantId: number, body: string): Promise<FullTextFile> {
  const key = newMediaKey(tenantId, FULL_TEXT_FILE_NAME);
  try {
    const { size } = await store.put(key, Buffer.from(body, 'utf8'), FULL_TEXT_MIME);
    return { key, size };
  } catch (error) {
    if (error instanceof MediaQuotaExceededError) return { refused: 'ERR_MEDIA_QUOTA_EXCEEDED' };
    throw error;
  }
}

/** Puts the stored whole text on the message just inserted, in its transaction; the updated row. */
export async function attachFullText(tx: Tx, messageId: number, file: FullTextFile): Promise<MessageRow> {
  const media =
    'key' in file
      ? { mediaKey: file.key, mediaSize: file.size, mediaStatus: 'ready' as const }
      : { mediaStatus: 'failed' as const, sendError: file.refused };
  const [row] = await tx
    .update(messages)
    .set({ ...media, mediaName: FULL_TEXT_FILE_NAME, mediaMime: FULL_TEXT_MIME })
    .where(eq(messages.id, messageId))
    .returning();
  return row!;
}

/** Removes a whole-text file whose message was not stored. */
export async function discardFullText(store: MediaStore, file: FullTextFile | null): Promise<void> {
  if (file && 'key' in file) await store.delete(file.key);
}

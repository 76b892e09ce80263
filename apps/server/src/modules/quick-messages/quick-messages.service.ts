/**
 * The tenant's quick messages: every profile lists them (agents use them in the chat); supervisors and admins
 * create, change and delete them. A file's bytes live in the media store (charged to the tenant's media quota) and
 * are served publicly by their random name; replacing or removing the file, or deleting the quick message, removes
 * the old bytes once the change is committed.
 */
import type { QuickMessageDto, QuickMessageFields } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { asTenantId, systemContext, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import type { MediaStore, StoredMedia } from '../../platform/storage/media-store.js';
import * as repo from './quick-messages.repository.js';

export interface QuickMessagesDeps {
  db: Database;
  store: MediaStore;
  /** The server's public address (no trailing slash): the DTO's `mediaUrl` is absolute. */
  publicUrl: string;
}

export const publicMediaPath = (tenantId: number, media: string): string =>
  `/api/public/${tenantId}/${encodeURIComponent(media)}`;

function rethrowDuplicateKey(error: unknown): never {
  if (repo.isDuplicateKey(error)) throw fail('ERR_FAST_REPLY_EXISTS');
  throw error;
}

/**
 * The rules over the resulting record: a message or a file (the text is optional with a file), and `voice` only on
 * an audio file.
 */
function checkResult(message: string, voice: 'enabled' | 'disabled', file: repo.QuickMessageFile | null): void {
  if (!message.trim() && !file) throw fail('ERR_VALIDATION', 'message');
  if (voice === 'enabled' && !file?.mediaType.startsWith('audio/')) throw fail('ERR_VALIDATION', 'voice');
}

const fileOf = (row: repo.QuickMessageRow): repo.QuickMessageFile | null =>
  row.media && row.mediaKey
    ? { media: row.media, mediaKey: row.mediaKey, mediaType: row.mediaType ?? '', mediaBytes: row.mediaBytes ?? 0 }
    : null;

export function createQuickMessagesService(deps: QuickMessagesDeps) {
  const { db, store } = deps;

  const toDto = (row: repo.QuickMessageRow): QuickMessageDto => ({
    id: row.id,
    key: row.key,
    message: row.message,
    media: row.media,
    voice: row.voice,
    mediaType: row.mediaType,
    mediaUrl: row.media ? `${deps.publicUrl}${publicMediaPath(row.tenantId, row.media)}` : null,
    isActive: row.isActive,
  });

  /** Runs a write; a file stored for it is removed again when the write fails. */
  async function writing<T>(file: repo.QuickMessageFile | null, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (file) await store.delete(file.mediaKey);
      throw error;
    }
  }

  return {
    listQuickMessages: async (ctx: TenantContext): Promise<QuickMessageDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listQuickMessages(tx, ctx.tenantId))).map(toDto),

    createQuickMessage: async (
      ctx: TenantContext,
      fields: QuickMessageFields,
      file: repo.QuickMessageFile | null,
    ): Promise<QuickMessageDto> =>
      writing(file, async () => {
        const message = fields.message ?? '';
        const voice = fields.voice ?? 'disabled';
        checkResult(message, voice, file);
        const values = { key: fields.key, message, voice, isActive: fields.isActive ?? true, file };
        const row = await withTenant(db, ctx, (tx) =>
          repo.insertQuickMessage(tx, ctx.tenantId, ctx.userId, values),
        ).catch(rethrowDuplicateKey);
        return toDto(row);
      }),

    /**
     * `file`: a new file replaces the current one; `removeMedia=true` removes it; otherwise it stays. `medias=null`
     * keeps it too: the reference client sends that string whenever no new file was chosen, also on an edit.
     */
    async updateQuickMessage(
      ctx: TenantContext,
      id: number,
      fields: QuickMessageFields,
      file: repo.QuickMessageFile | null,
    ): Promise<QuickMessageDto> {
      const remove = fields.removeMedia === true;
      const { row, old } = await writing(file, () =>
        withTenant(db, ctx, async (tx) => {
          const current = await repo.findQuickMessage(tx, ctx.tenantId, id, { lock: true });
          if (!current) throw fail('ERR_NO_FAST_REPLY_FOUND');
          const currentFile = fileOf(current);
          const next = file ?? (remove ? null : currentFile);
          const message = fields.message ?? current.message;
          const voice = fields.voice ?? (file || remove ? 'disabled' : current.voice);
          checkResult(message, voice, next);
          const values = { key: fields.key, message, voice, isActive: fields.isActive ?? current.isActive };
          const updated = await repo.updateQuickMessage(tx, ctx.tenantId, id, {
            ...values,
            ...(next === currentFile ? {} : { file: next }),
          });
          return { row: updated!, old: next === currentFile ? null : currentFile };
        }).catch(rethrowDuplicateKey),
      );
      if (old) await store.delete(old.mediaKey);
      return toDto(row);
    },

    async deleteQuickMessage(ctx: TenantContext, id: number): Promise<void> {
      const old = await withTenant(db, ctx, async (tx) => {
        const current = await repo.findQuickMessage(tx, ctx.tenantId, id, { lock: true });
        if (!current) throw fail('ERR_NO_FAST_REPLY_FOUND');
        await repo.deleteQuickMessage(tx, ctx.tenantId, id);
        return fileOf(current);
      });
      if (old) await store.delete(old.mediaKey);
    },

    /** The public file `/public/{tenantId}/{media}`: found only in that tenant's quick messages. */
    async openPublicMedia(tenantId: number, media: string): Promise<StoredMedia & { mime: string; name: string }> {
      const row = await withTenant(db, systemContext(asTenantId(tenantId)), (tx) =>
        repo.findByMedia(tx, asTenantId(tenantId), media),
      );
      const found = row?.mediaKey ? await store.get(row.mediaKey) : null;
      if (!row || !found) throw fail('ERR_NO_FAST_REPLY_FOUND');
      return { ...found, mime: row.mediaType ?? 'application/octet-stream', name: media };
    },
  };
}

export type QuickMessagesService = ReturnType<typeof createQuickMessagesService>;

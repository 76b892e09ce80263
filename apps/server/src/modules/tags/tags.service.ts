/** The tenant's tags: every profile lists them (contact forms, filters); supervisors and admins manage them. */
import type { TagDto } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './tags.repository.js';
import './tags.events.js';

const toTagDto = (row: repo.TagRow): TagDto => ({ id: row.id, tag: row.tag, color: row.color, isActive: row.isActive });

function rethrowDuplicateName(error: unknown): never {
  if (repo.isDuplicateTagName(error)) throw fail('ERR_TAG_EXISTS');
  throw error;
}

export function createTagsService(deps: { db: Database; events: EventBus }) {
  const { db, events } = deps;
  const changed = (ctx: TenantContext, action: 'create' | 'update' | 'delete', tag: TagDto) =>
    events.publish('tags.changed', { tenantId: ctx.tenantId, action, tag });
  return {
    listTags: async (ctx: TenantContext, isActive: boolean | null): Promise<TagDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listTags(tx, ctx.tenantId, isActive))).map(toTagDto),

    async createTag(ctx: TenantContext, values: repo.TagValues): Promise<TagDto> {
      const tag = toTagDto(
        await withTenant(db, ctx, (tx) => repo.insertTag(tx, ctx.tenantId, values)).catch(rethrowDuplicateName),
      );
      changed(ctx, 'create', tag);
      return tag;
    },

    async updateTag(ctx: TenantContext, id: number, values: repo.TagValues): Promise<TagDto> {
      const row = await withTenant(db, ctx, (tx) => repo.updateTag(tx, ctx.tenantId, id, values)).catch(
        rethrowDuplicateName,
      );
      if (!row) throw fail('ERR_NO_TAG_FOUND');
      const tag = toTagDto(row);
      changed(ctx, 'update', tag);
      return tag;
    },

    async deleteTag(ctx: TenantContext, id: number): Promise<void> {
      const row = await withTenant(db, ctx, async (tx) => {
        const locked = await repo.lockTag(tx, ctx.tenantId, id);
        if (!locked) throw fail('ERR_NO_TAG_FOUND');
        if (await repo.tagHasContacts(tx, ctx.tenantId, id)) throw fail('ERR_TAG_CONTACTS_EXISTS');
        await repo.deleteTag(tx, ctx.tenantId, id);
        return locked;
      });
      changed(ctx, 'delete', toTagDto(row));
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;

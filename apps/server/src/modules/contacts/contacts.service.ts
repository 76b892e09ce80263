/** The tenant's contacts: list, read, create, edit, delete, and replace their tags and wallets. ctx comes first. */
import type { ContactDto, contactListQuerySchema } from '@conversa/shared';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { contactHasTickets } from './contacts.bulk.repository.js';
import { loadContactDtos, toContactDto } from './contacts.dto.js';
import * as repo from './contacts.repository.js';
import { contactColumns, type ContactEdit } from './contacts.rules.js';
import './contacts.events.js';

/** The reference client pages contacts 40 at a time. */
const CONTACTS_PAGE_SIZE = 40;

export type ContactListQuery = z.output<typeof contactListQuerySchema>;
export interface ContactList {
  contacts: ContactDto[];
  count: number;
  countCapped: boolean;
  hasMore: boolean;
}

/** Refuses a kanban lane that is not the tenant's (404 ERR_NO_LANE_FOUND); null (no lane) and absent pass. */
async function assertTenantLane(tx: Tx, ctx: TenantContext, laneId: number | null | undefined) {
  if (laneId != null && !(await repo.tenantLaneExists(tx, ctx.tenantId, laneId))) throw fail('ERR_NO_LANE_FOUND');
}

/** Refuses ids that are not tags (field `tags`) or users (field `wallets`) of the tenant. */
export async function assertTenantSets(tx: Tx, ctx: TenantContext, sets: { tags?: number[]; wallets?: number[] }) {
  const tagIds = [...new Set(sets.tags ?? [])];
  if ((await repo.findTenantTagIds(tx, ctx.tenantId, tagIds)).length !== tagIds.length) {
    throw fail('ERR_VALIDATION', 'tags');
  }
  const userIds = [...new Set(sets.wallets ?? [])];
  if ((await repo.findTenantUserIds(tx, ctx.tenantId, userIds)).length !== userIds.length) {
    throw fail('ERR_VALIDATION', 'wallets');
  }
}

/** Maps a violated uniqueness (number or a channel id) to 409 ERR_DUPLICATED_CONTACT naming the field. */
export function rethrowDuplicate(error: unknown): never {
  const field = repo.duplicateContactField(error);
  if (field) throw fail('ERR_DUPLICATED_CONTACT', field);
  throw error;
}

export function createContactsService(deps: { db: Database; events: EventBus; logger?: Logger }) {
  const { db, events, logger } = deps;

  async function loadDto(tx: Tx, ctx: TenantContext, id: number): Promise<ContactDto> {
    const row = await repo.findContact(tx, ctx.tenantId, id);
    if (!row) throw fail('ERR_NO_CONTACT_FOUND');
    const [dto] = await loadContactDtos(tx, [row]);
    return dto!;
  }

  /** Runs fn on an existing contact of the tenant, then publishes the updated contact. */
  async function changeContact(ctx: TenantContext, id: number, fn: (tx: Tx, row: repo.ContactRow) => Promise<void>) {
    const contact = await withTenant(db, ctx, async (tx) => {
      const [row] = await repo.lockContacts(tx, ctx.tenantId, [id]);
      if (!row) throw fail('ERR_NO_CONTACT_FOUND');
      await fn(tx, row);
      return loadDto(tx, ctx, id);
    }).catch(rethrowDuplicate);
    events.publish('contacts.updated', { tenantId: ctx.tenantId, contact });
    return contact;
  }

  return {
    async listContacts(ctx: TenantContext, query: ContactListQuery): Promise<ContactList> {
      const limit = query.rowsPerPage ?? CONTACTS_PAGE_SIZE;
      const filter = {
        search: query.searchParam,
        walletId: query.walletId,
        tagId: query.tagId,
        limit,
        offset: (query.pageNumber - 1) * limit,
      };
      return withTenant(db, ctx, async (tx) => {
        const { rows, ...page } = await repo.listContacts(tx, ctx.tenantId, filter);
        return { contacts: rows.map((row) => toContactDto(row.contact, row.tags, row.wallets)), ...page };
      });
    },

    getContact: (ctx: TenantContext, id: number): Promise<ContactDto> =>
      withTenant(db, ctx, (tx) => loadDto(tx, ctx, id)),

    async createContact(ctx: TenantContext, input: ContactEdit & { name: string }): Promise<ContactDto> {
      const columns = { ...contactColumns(input), name: input.name };
      const contact = await withTenant(db, ctx, async (tx) => {
        await assertTenantSets(tx, ctx, input);
        await assertTenantLane(tx, ctx, input.kanban);
        const row = await repo.insertContact(tx, ctx.tenantId, columns);
        if (input.tags) await repo.addContactTags(tx, ctx.tenantId, [row.id], input.tags);
        if (input.wallets) await repo.addContactWallets(tx, ctx.tenantId, [row.id], input.wallets);
        return loadDto(tx, ctx, row.id);
      }).catch(rethrowDuplicate);
      events.publish('contacts.created', { tenantId: ctx.tenantId, contact });
      return contact;
    },

    async updateContact(ctx: TenantContext, id: number, input: ContactEdit): Promise<ContactDto> {
      let lane: { from: number | null } | undefined;
      const contact = await changeContact(ctx, id, async (tx, row) => {
        const columns = contactColumns(input, row.isGroup);
        await assertTenantSets(tx, ctx, input);
        await assertTenantLane(tx, ctx, input.kanban);
        if (Object.keys(columns).length > 0) await repo.updateContact(tx, ctx.tenantId, id, columns);
        if (input.tags) await repo.replaceContactTags(tx, ctx.tenantId, id, input.tags);
        if (input.wallets) await repo.replaceContactWallets(tx, ctx.tenantId, id, input.wallets);
        if (input.kanban !== undefined && input.kanban !== row.kanban) lane = { from: row.kanban };
      });
      // A board move (the card's lane), once committed: stored above, pushed by contacts.updated, logged here.
      if (lane) {
        logger?.info(
          { tenantId: ctx.tenantId, userId: ctx.userId, contactId: id, from: lane.from, to: contact.kanban },
          'contact moved to another kanban lane',
        );
      }
      return contact;
    },

    setContactTags: (ctx: TenantContext, id: number, tagIds: number[]): Promise<ContactDto> =>
      changeContact(ctx, id, async (tx) => {
        await assertTenantSets(tx, ctx, { tags: tagIds });
        await repo.replaceContactTags(tx, ctx.tenantId, id, tagIds);
      }),

    setContactWallets: (ctx: TenantContext, id: number, userIds: number[]): Promise<ContactDto> =>
      changeContact(ctx, id, async (tx) => {
        await assertTenantSets(tx, ctx, { wallets: userIds });
        await repo.replaceContactWallets(tx, ctx.tenantId, id, userIds);
      }),

    async deleteContact(ctx: TenantContext, id: number): Promise<void> {
      const deleted = await withTenant(db, ctx, async (tx) => {
        const [row] = await repo.lockContacts(tx, ctx.tenantId, [id]);
        if (row && (await contactHasTickets(tx, ctx.tenantId, id))) throw fail('ERR_CONTACT_TICKETS_REGISTERED');
        return repo.deleteContacts(tx, ctx.tenantId, [id]);
      });
      if (deleted.length === 0) throw fail('ERR_NO_CONTACT_FOUND');
      events.publish('contacts.deleted', { tenantId: ctx.tenantId, contactId: id });
    },
  };
}

export type ContactsService = ReturnType<typeof createContactsService>;

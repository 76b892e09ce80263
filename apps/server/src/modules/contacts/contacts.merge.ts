/**
 * Duplicates and merge: contacts whose numbers differ only by the Brazilian mobile ninth digit are listed in groups;
 * a merge keeps the target, gives it what the sources have that it lacks, and deletes the sources.
 */
import type { ContactDto } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { copyContactSets, findNinthDigitDuplicates, moveContactTickets } from './contacts.bulk.repository.js';
import { loadContactDtos } from './contacts.dto.js';
import * as repo from './contacts.repository.js';
import { rethrowDuplicate } from './contacts.service.js';
import type { ExtraInfoItem } from './contacts.tables.js';
import './contacts.events.js';

const MAX_GROUPS = 200;

/** Fields a merge fills on the target when it has none (first source in the given order wins). */
const FILLABLE = [
  'number',
  'email',
  'profilePicUrl',
  'pushname',
  'cpf',
  'birthdayDate',
  'firstName',
  'lastName',
  'businessName',
  'telegramId',
  'messengerId',
  'instagramPK',
  'hubWhatsapp',
  'kanban',
] as const satisfies readonly (keyof repo.ContactValues)[];

const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '';

/** The target's patch: its empty fields filled from the sources, and extra info merged by name (target first). */
export function mergedFields(target: repo.ContactRow, sources: repo.ContactRow[]): Partial<repo.ContactValues> {
  const patch: Partial<repo.ContactValues> = {};
  for (const field of [...FILLABLE, 'name'] as const) {
    if (!isEmpty(target[field])) continue;
    // A picture we stored (contacts.avatars.ts) is signed for its own contact, which goes: it is not carried over.
    const source = sources.find((s) => !isEmpty(s[field]) && !(field === 'profilePicUrl' && s.avatarKey));
    if (source) Object.assign(patch, { [field]: source[field] });
  }
  const extraInfo: ExtraInfoItem[] = [...target.extraInfo];
  const names = new Set(extraInfo.map((item) => item.name));
  for (const item of sources.flatMap((s) => s.extraInfo)) {
    if (names.has(item.name)) continue;
    names.add(item.name);
    extraInfo.push(item);
  }
  if (extraInfo.length !== target.extraInfo.length) patch.extraInfo = extraInfo;
  return patch;
}

export function createMergeService(deps: { db: Database; events: EventBus }) {
  const { db, events } = deps;
  return {
    async findDuplicates(ctx: TenantContext): Promise<{ groups: { key: string; contacts: ContactDto[] }[] }> {
      return withTenant(db, ctx, async (tx) => {
        const found = await findNinthDigitDuplicates(tx, ctx.tenantId, MAX_GROUPS);
        const dtos = await loadContactDtos(
          tx,
          found.map((f) => f.contact),
        );
        const groups = new Map<string, ContactDto[]>();
        found.forEach(({ key }, index) => groups.set(key, [...(groups.get(key) ?? []), dtos[index]!]));
        return { groups: [...groups].map(([key, contacts]) => ({ key, contacts })) };
      });
    },

    async mergeContacts(ctx: TenantContext, input: { targetId: number; sourceIds: number[] }): Promise<ContactDto> {
      const sourceIds = [...new Set(input.sourceIds)];
      if (sourceIds.includes(input.targetId)) throw fail('ERR_VALIDATION', 'sourceIds');
      const contact = await withTenant(db, ctx, async (tx) => {
        const locked = await repo.lockContacts(tx, ctx.tenantId, [input.targetId, ...sourceIds]);
        const target = locked.find((row) => row.id === input.targetId);
        if (!target || locked.length !== sourceIds.length + 1) throw fail('ERR_NO_CONTACT_FOUND');
        const sources = sourceIds.map((id) => locked.find((row) => row.id === id)!);
        await copyContactSets(tx, ctx.tenantId, target.id, sourceIds);
        await moveContactTickets(tx, ctx.tenantId, ctx.userId, target.id, sourceIds);
        // The sources go first: the target may take over their number or channel ids (unique per tenant).
        await repo.deleteContacts(tx, ctx.tenantId, sourceIds);
        const row = await repo.updateContact(tx, ctx.tenantId, target.id, mergedFields(target, sources));
        const [dto] = await loadContactDtos(tx, [row!]);
        return dto!;
      }).catch(rethrowDuplicate);
      events.publish('contacts.updated', { tenantId: ctx.tenantId, contact });
      for (const contactId of sourceIds) events.publish('contacts.deleted', { tenantId: ctx.tenantId, contactId });
      return contact;
    },
  };
}

export type MergeService = ReturnType<typeof createMergeService>;

/** Contact rows to the wire shape of packages/shared (client-contract §20.4). */
import type { ContactDto } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { loadContactSets, type ContactRow, type TagRef, type WalletRef } from './contacts.repository.js';

export function toContactDto(row: ContactRow, tags: TagRef[] = [], wallets: WalletRef[] = []): ContactDto {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    pushname: row.pushname,
    isGroup: row.isGroup,
    cpf: row.cpf,
    birthdayDate: row.birthdayDate,
    firstName: row.firstName,
    lastName: row.lastName,
    businessName: row.businessName,
    telegramId: row.telegramId,
    messengerId: row.messengerId,
    instagramPK: row.instagramPK,
    hubWhatsapp: row.hubWhatsapp,
    kanban: row.kanban,
    blocked: row.blocked,
    chatbotBlocked: row.chatbotBlocked,
    extraInfo: Array.isArray(row.extraInfo) ? row.extraInfo : [],
    tags,
    wallets,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** DTOs with their tags and wallets, in the order of the rows. */
export async function loadContactDtos(tx: Queryable, rows: ContactRow[]): Promise<ContactDto[]> {
  const sets = await loadContactSets(
    tx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toContactDto(row, sets.tags.get(row.id), sets.wallets.get(row.id)));
}

/** The set-wise contact queries: the import upsert, export pages, ninth-digit duplicates and merge helpers. */
import { and, asc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import type { ContactRow, ContactValues } from './contacts.repository.js';
import { contacts, contactTags, contactWallets, tags, type ExtraInfoItem } from './contacts.tables.js';

export type ImportValues = Pick<ContactValues, 'name' | 'email' | 'cpf' | 'birthdayDate'> & { number: string };

/**
 * Creates the contacts, or completes the one with the same number: empty fields are filled, nothing is overwritten,
 * so running the same rows twice changes nothing. `inserted` tells a new contact from an existing one.
 */
export async function upsertImportedContacts(
  tx: Queryable,
  tenantId: TenantId,
  rows: ImportValues[],
): Promise<{ id: number; inserted: boolean }[]> {
  if (rows.length === 0) return [];
  const fills = sql`(${contacts.name} = '' and excluded.name <> '') or (${contacts.email} = '' and excluded.email <> '')
    or (${contacts.cpf} is null and excluded.cpf is not null)
    or (${contacts.birthdayDate} is null and excluded.birthday_date is not null)`;
  return tx
    .insert(contacts)
    .values(rows.map((row) => ({ ...row, tenantId })))
    .onConflictDoUpdate({
      target: [contacts.tenantId, contacts.number],
      targetWhere: sql`${contacts.number} is not null`,
      set: {
        name: sql`case when ${contacts.name} = '' then excluded.name else ${contacts.name} end`,
        email: sql`case when ${contacts.email} = '' then excluded.email else ${contacts.email} end`,
        cpf: sql`coalesce(${contacts.cpf}, excluded.cpf)`,
        birthdayDate: sql`coalesce(${contacts.birthdayDate}, excluded.birthday_date)`,
        updatedAt: sql`case when ${fills} then now() else ${contacts.updatedAt} end`,
      },
    })
    .returning({ id: contacts.id, inserted: sql<boolean>`(xmax = 0)` });
}

export interface ExportRow {
  id: number;
  name: string;
  number: string | null;
  email: string;
  cpf: string | null;
  birthdayDate: string | null;
  extraInfo: ExtraInfoItem[];
  tags: string;
}

/** One page of the export, after `afterId` in id order (keyset paging: no offset scan on big tenants). */
export async function exportPage(tx: Queryable, tenantId: TenantId, afterId: number, limit: number) {
  // Written with aliases: drizzle leaves columns unqualified in the select list of a one-table query.
  const tagNames = sql<string>`coalesce((select string_agg(t.tag, ', ' order by t.tag)
    from ${contactTags} ct join ${tags} t on t.id = ct.tag_id where ct.contact_id = contacts.id), '')`;
  const rows: ExportRow[] = await tx
    .select({
      id: contacts.id,
      name: contacts.name,
      number: contacts.number,
      email: contacts.email,
      cpf: contacts.cpf,
      birthdayDate: contacts.birthdayDate,
      extraInfo: contacts.extraInfo,
      tags: tagNames,
    })
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), gt(contacts.id, afterId)))
    .orderBy(asc(contacts.id))
    .limit(limit);
  return rows;
}

/** 55 + DDD + the last 8 digits for Brazilian numbers with or without the mobile ninth digit; null otherwise. */
const ninthDigitKey = sql<string | null>`case when ${contacts.number} ~ '^55[0-9]{2}9?[0-9]{8}$'
  then substr(${contacts.number}, 1, 4) || right(${contacts.number}, 8) end`;

/** Contacts (not groups) whose numbers meet once the ninth digit is ignored, in groups of 2+, by key then id. */
export async function findNinthDigitDuplicates(
  tx: Queryable,
  tenantId: TenantId,
  maxGroups: number,
): Promise<{ key: string; contact: ContactRow }[]> {
  const people = and(eq(contacts.tenantId, tenantId), eq(contacts.isGroup, false), isNotNull(contacts.number));
  const keys = await tx
    .select({ key: ninthDigitKey })
    .from(contacts)
    .where(and(people, sql`${ninthDigitKey} is not null`))
    .groupBy(ninthDigitKey)
    .having(sql`count(*) > 1`)
    .orderBy(ninthDigitKey)
    .limit(maxGroups);
  if (keys.length === 0) return [];
  const rows = await tx
    .select({ key: ninthDigitKey, contact: contacts })
    .from(contacts)
    .where(
      and(
        people,
        inArray(
          ninthDigitKey,
          keys.map((k) => k.key!),
        ),
      ),
    )
    .orderBy(ninthDigitKey, asc(contacts.id));
  return rows.map((row) => ({ key: row.key!, contact: row.contact }));
}

/** Gives the target every tag and wallet user the sources have (the sources keep theirs until deleted). */
export async function copyContactSets(tx: Queryable, tenantId: TenantId, targetId: number, sourceIds: number[]) {
  await tx.execute(sql`
    insert into ${contactTags} (tenant_id, contact_id, tag_id)
    select ${tenantId}, ${targetId}, tag_id from ${contactTags}
    where tenant_id = ${tenantId} and contact_id in ${sourceIds}
    on conflict do nothing`);
  await tx.execute(sql`
    insert into ${contactWallets} (tenant_id, contact_id, user_id)
    select ${tenantId}, ${targetId}, user_id from ${contactWallets}
    where tenant_id = ${tenantId} and contact_id in ${sourceIds}
    on conflict do nothing`);
}

const bigintArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;

/**
 * Merge: the sources' tickets (and their messages) move to the target. One contact keeps at most one open/pending
 * ticket per channel, so where the merged contacts have several on one channel the target's (else the oldest) stays
 * and the others are closed with a `closed` log first. The tickets table is named in SQL because the tickets module
 * imports contacts (an import back would be a cycle).
 */
export async function moveContactTickets(
  tx: Queryable,
  tenantId: TenantId,
  userId: number | null,
  targetId: number,
  sourceIds: number[],
): Promise<void> {
  if (sourceIds.length === 0) return;
  const all = bigintArray([targetId, ...sourceIds]);
  await tx.execute(sql`
    with active as (
      select id, row_number() over (partition by coalesce(channel_id, 0)
                                    order by (contact_id = ${targetId}) desc, id) as rank
      from tickets where tenant_id = ${tenantId} and contact_id = any(${all}) and status in ('open', 'pending')
    ), closed as (
      update tickets t set status = 'closed', closed_at = now(), closing_at = null, unread_messages = 0,
                           updated_at = now()
      from active a where t.id = a.id and a.rank > 1 returning t.id
    )
    insert into ticket_logs (tenant_id, ticket_id, user_id, type, details)
    select ${tenantId}, id, ${userId}, 'closed', ${JSON.stringify({ reason: 'contactMerge', contactId: targetId })}::jsonb
    from closed`);
  const sources = bigintArray(sourceIds);
  await tx.execute(
    sql`update tickets set contact_id = ${targetId} where tenant_id = ${tenantId} and contact_id = any(${sources})`,
  );
  // Messages carry their ticket's contact (and, in groups, the sender's): they follow the tickets.
  await tx.execute(sql`update messages set
      contact_id = case when contact_id = any(${sources}) then ${targetId} else contact_id end,
      sender_contact_id = case when sender_contact_id = any(${sources}) then ${targetId} else sender_contact_id end
    where tenant_id = ${tenantId} and (contact_id = any(${sources}) or sender_contact_id = any(${sources}))`);
}

/** Whether the contact has any ticket (a contact with tickets cannot be deleted). */
export async function contactHasTickets(tx: Queryable, tenantId: TenantId, contactId: number): Promise<boolean> {
  const result = (await tx.execute(
    sql`select exists (select 1 from tickets where tenant_id = ${tenantId} and contact_id = ${contactId}) as used`,
  )) as unknown as { rows: { used: boolean }[] };
  return result.rows[0]?.used === true;
}

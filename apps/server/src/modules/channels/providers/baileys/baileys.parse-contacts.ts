/**
 * Contacts and groups, for the parser (baileys.parse.ts): `contacts.upsert` / `contacts.update` become contact events
 * of the people whose number resolves (a LID alone waits for its messages), `groups.upsert` / `groups.update` group
 * contacts named by their subject.
 */
import { isJidGroup } from 'baileys';
import type { InboundEvent } from '../../channels.adapter.js';
import { emptyContext, isIgnoredChat, jidUser, personParty, type ParseContext } from './baileys.parse-addresses.js';
import { contactSchema, groupSchema } from './baileys.schemas.js';

/** `contacts.upsert` / `contacts.update`: people only (groups come from groups.upsert); the saved name first. */
export function parseContacts(raw: unknown[], ctx: ParseContext = emptyContext): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const item of raw) {
    const parsed = contactSchema.safeParse(item);
    if (!parsed.success) continue;
    const c = parsed.data;
    if (isJidGroup(c.id) || isIgnoredChat(c.id)) continue;
    const party = personParty(c.id, [c.phoneNumber], c.name ?? c.notify ?? c.verifiedName, ctx);
    // An unresolved LID is not worth a contact of its own: its messages will resolve it.
    if (!party.number) continue;
    // No picture: the library's imgUrl is 'changed'/'removed' (or a CDN link that expires and our CSP blocks); the
    // contacts module stores customers' pictures itself (contacts.avatars.ts).
    events.push({ kind: 'contact', party });
  }
  return events;
}

/** `groups.upsert` / `groups.update`: a group contact named by its subject. */
export function parseGroups(raw: unknown[]): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const item of raw) {
    const parsed = groupSchema.safeParse(item);
    if (!parsed.success || !isJidGroup(parsed.data.id)) continue;
    const subject = parsed.data.subject;
    events.push({
      kind: 'contact',
      party: {
        chatId: parsed.data.id,
        isGroup: true,
        name: subject || jidUser(parsed.data.id),
        number: null,
        idField: 'number',
      },
    });
  }
  return events;
}

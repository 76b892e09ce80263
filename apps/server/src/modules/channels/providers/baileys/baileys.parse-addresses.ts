/**
 * Addressing, for the parser (baileys.parse.ts) and the driver. A chat is a phone JID (`<digits>@s.whatsapp.net`), a
 * group (`@g.us`) or, since WhatsApp's LID migration, a LID (`<id>@lid`) that hides the number. A LID is resolved to
 * its phone JID with what the library tells (`key.remoteJidAlt` / `participantAlt`, the older `senderPn` /
 * `participantPn`, contacts with `phoneNumber`, the library's LID mapping gathered by the driver into
 * `ParseContext.pnForLid`), so one person is one contact whichever address a message came from. An unresolved LID
 * stays a LID chat without a number. Numbers follow the one rule of all WhatsApp channels (../whatsapp-number.ts, the
 * Brazilian ninth digit); the driver sends to the JID WhatsApp answers for either form (onWhatsApp), so the stored
 * number never changes.
 */
import { z } from 'zod';
import { isJidBroadcast, isJidNewsletter, isJidStatusBroadcast, isLidUser, jidDecode } from 'baileys';
import type { InboundParty } from '../../channels.adapter.js';
import { normalizeWhatsAppNumber } from '../whatsapp-number.js';
import { contactSchema, keySchema } from './baileys.schemas.js';

export interface ParseContext {
  /** The phone JID of a LID JID when known (`123@lid` -> `5511988887777@s.whatsapp.net`), else null. */
  pnForLid(lid: string): string | null;
  /** A group's subject when known. */
  groupName(jid: string): string | null;
}

export const emptyContext: ParseContext = { pnForLid: () => null, groupName: () => null };

// ---- numbers and JIDs -------------------------------------------------------------------------------------------

/** The user part of a JID without device (`5511...:7@s.whatsapp.net` -> `5511...`). */
export const jidUser = (jid: string): string => jidDecode(jid)?.user ?? jid.split('@')[0]!.split(':')[0]!;

/** The bare form of a LID JID (`123:4@lid` -> `123@lid`), the key of the LID map. */
export const bareLid = (jid: string): string => `${jidUser(jid)}@lid`;

const isPhoneJid = (jid: string | null | undefined): jid is string =>
  Boolean(jid && (jid.endsWith('@s.whatsapp.net') || jid.endsWith('@c.us')));

/** The phone JID a person's JID stands for: itself, its alternative address, or the LID map's answer. */
function phoneJidOf(jid: string, alternatives: (string | null | undefined)[], ctx: ParseContext): string | null {
  if (isPhoneJid(jid)) return jid;
  for (const alt of alternatives) if (isPhoneJid(alt)) return alt;
  return isLidUser(jid) ? ctx.pnForLid(bareLid(jid)) : null;
}

/** A person's number (digits, ninth-digit rule applied) when their JID or an alternative resolves, else null. */
export function numberOf(jid: string, alternatives: (string | null | undefined)[], ctx: ParseContext): string | null {
  const phone = phoneJidOf(jid, alternatives, ctx);
  return phone ? normalizeWhatsAppNumber(jidUser(phone)) : null;
}

/** A person as a party: chatId is the normalized number when known, else the LID JID. */
export function personParty(
  jid: string,
  alternatives: (string | null | undefined)[],
  name: string | null | undefined,
  ctx: ParseContext,
): InboundParty {
  const phone = phoneJidOf(jid, alternatives, ctx);
  const number = phone ? normalizeWhatsAppNumber(jidUser(phone)) : null;
  const chatId = number ?? bareLid(jid);
  return { chatId, isGroup: false, name: name?.trim() || number || chatId, number, idField: 'number' };
}

export function groupParty(jid: string, ctx: ParseContext): InboundParty {
  return { chatId: jid, isGroup: true, name: ctx.groupName(jid) ?? jidUser(jid), number: null, idField: 'number' };
}

/** Chats the product has no ticket for: status updates, broadcast lists, newsletters. */
export const isIgnoredChat = (jid: string) =>
  isJidStatusBroadcast(jid) || Boolean(isJidBroadcast(jid)) || Boolean(isJidNewsletter(jid));

// ---- the LID map --------------------------------------------------------------------------------------------------

/** LID -> phone JID pairs a batch of messages or contacts reveals (alternative addresses in keys, contacts' numbers). */
export function lidPairsOf(messages: unknown[], contacts: unknown[] = []): [string, string][] {
  const pairs: [string, string][] = [];
  const add = (a: string | null | undefined, b: string | null | undefined) => {
    if (a && b && isLidUser(a) && isPhoneJid(b)) pairs.push([bareLid(a), `${jidUser(b)}@s.whatsapp.net`]);
    if (a && b && isLidUser(b) && isPhoneJid(a)) pairs.push([bareLid(b), `${jidUser(a)}@s.whatsapp.net`]);
  };
  for (const item of messages) {
    const parsed = z.looseObject({ key: keySchema }).safeParse(item);
    if (!parsed.success) continue;
    const { key } = parsed.data;
    add(key.remoteJid, key.remoteJidAlt ?? key.senderPn);
    add(key.participant, key.participantAlt ?? key.participantPn);
  }
  for (const item of contacts) {
    const parsed = contactSchema.safeParse(item);
    if (!parsed.success) continue;
    add(parsed.data.lid ?? parsed.data.id, parsed.data.phoneNumber ?? parsed.data.id);
  }
  return pairs;
}

/** The LID JIDs of a batch that nothing in it resolves (the driver asks the library's LID map for them). */
export function lidsOf(messages: unknown[]): string[] {
  const lids = new Set<string>();
  for (const item of messages) {
    const parsed = z.looseObject({ key: keySchema.partial({ id: true }) }).safeParse(item);
    if (!parsed.success) continue;
    const { key } = parsed.data;
    if (isLidUser(key.remoteJid)) lids.add(bareLid(key.remoteJid));
    if (key.participant && isLidUser(key.participant)) lids.add(bareLid(key.participant));
  }
  return [...lids];
}

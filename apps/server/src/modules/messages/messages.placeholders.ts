/**
 * The one placeholder renderer of texts the server sends for a ticket: chat flow steps and the absence message (through
 * the tickets port), farewells and closing messages (resolve, auto-close), the farewell, rating and protocol texts a
 * client sends with a `sendType`, quick messages the server sends, and scheduled messages when they go out.
 *
 * `{{name}}` the contact's name, `{{firstName}}` its first word, `{{protocol}}` the ticket's protocol, `{{greeting}}`
 * "Bom dia" / "Boa tarde" / "Boa noite" by the hour on the company's wall clock (tenants.timezone). Keys are matched
 * without regard to case or inner spaces (`{{ Name }}`); unknown placeholders stay as written.
 */
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { contacts } from '../contacts/contacts.tables.js';
import { tenants } from '../tenants/tenants.tables.js';

export interface PlaceholderValues {
  /** The contact's name. */
  name: string;
  /** The ticket's protocol. */
  protocol: string;
  /** The company's timezone (IANA), for `{{greeting}}`. */
  timeZone: string;
}

const PLACEHOLDER = /\{\{\s*(name|firstName|protocol|greeting)\s*\}\}/gi;

/** Whether a text names a placeholder at all (the fast path: no database read for plain texts). */
export const hasPlaceholders = (text: string): boolean => text.includes('{{');

/** The hour (0-23) of `now` on the wall clock of `timeZone` (UTC when the zone is unknown). */
function hourIn(now: Date, timeZone: string): number {
  try {
    const hour = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now);
    return Number(hour);
  } catch {
    return now.getUTCHours();
  }
}

/** "Bom dia" from 05:00, "Boa tarde" from 12:00, "Boa noite" from 18:00, on the company's clock. */
export function greetingAt(now: Date, timeZone: string): string {
  const hour = hourIn(now, timeZone);
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

export function renderPlaceholders(text: string, values: PlaceholderValues, now = new Date()): string {
  if (!hasPlaceholders(text)) return text;
  return text.replace(PLACEHOLDER, (_match, key: string) => {
    switch (key.toLowerCase()) {
      case 'name':
        return values.name;
      case 'firstname':
        return values.name.trim().split(/\s+/)[0] ?? '';
      case 'protocol':
        return values.protocol;
      default:
        return greetingAt(now, values.timeZone);
    }
  });
}

/** The values of a ticket: its contact's name, its protocol, its company's timezone. */
export async function ticketPlaceholderValues(
  tx: Queryable,
  ticket: { tenantId: number; contactId: number; protocol: string },
): Promise<PlaceholderValues> {
  const [contact] = await tx.select({ name: contacts.name }).from(contacts).where(eq(contacts.id, ticket.contactId));
  const [tenant] = await tx.select({ timeZone: tenants.timezone }).from(tenants).where(eq(tenants.id, ticket.tenantId));
  return {
    name: contact?.name ?? '',
    protocol: ticket.protocol,
    timeZone: tenant?.timeZone ?? 'America/Sao_Paulo',
  };
}

/** `text` rendered for the ticket; a text without placeholders is returned as it is, without reading anything. */
export async function renderForTicket(
  tx: Queryable,
  ticket: { tenantId: number; contactId: number; protocol: string },
  text: string,
): Promise<string> {
  if (!hasPlaceholders(text)) return text;
  return renderPlaceholders(text, await ticketPlaceholderValues(tx, ticket));
}

/** A send's `prepare` (messages.send.ts) that renders its body for the ticket it goes to. */
export const bodyRenderedFor =
  (body: string) => async (tx: Queryable, ticket: { tenantId: number; contactId: number; protocol: string }) => ({
    body: await renderForTicket(tx, ticket, body),
  });

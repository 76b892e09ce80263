/**
 * Ticket log types on the wire (client-contract §4.3): TICKET_LOG_TYPES is the contract's list and the only types the
 * server writes. Rows written before that rule named three types of their own; they are read under the contract's
 * name (a reopen is `open`, a close without farewell `closed`, a channel move `transfered`), so clients that only
 * know the contract's list label them and our response schema (an enum of the list) never refuses an old row.
 */
import { TICKET_LOG_TYPES, type TicketLogType } from '@conversa/shared';

export const LEGACY_LOG_TYPES: Readonly<Record<string, TicketLogType>> = {
  reopen: 'open',
  forceClosed: 'closed',
  channel: 'transfered',
};

const known = new Set<string>(TICKET_LOG_TYPES);

/** The contract's name for a stored type; an unknown one reads as `userDefine` (a change made by someone). */
export function contractLogType(stored: string): TicketLogType {
  if (known.has(stored)) return stored as TicketLogType;
  return LEGACY_LOG_TYPES[stored] ?? 'userDefine';
}

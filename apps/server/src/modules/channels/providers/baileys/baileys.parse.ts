/**
 * Baileys events -> normalized InboundEvents (pure: no socket, no database). Every library object is read through a
 * loose zod schema of the fields used; a message that does not fit is skipped (the caller logs it), never half-read.
 *
 * The parser in files: this one is what the driver, the history import and the tests import;
 * baileys.parse-addresses.ts holds the addressing (JIDs, LIDs and the LID map, numbers, parties),
 * baileys.parse-content.ts a message's content (wrappers, text, media refs, locations, cards, choices),
 * baileys.parse-messages.ts the events of messages (messages, edits, deletes, reactions, updates, receipts),
 * baileys.parse-contacts.ts contacts and groups, and baileys.schemas.ts the schemas of the library's objects.
 */
export { normalizeWhatsAppNumber, whatsAppNumberForms } from '../whatsapp-number.js';
export {
  bareLid,
  emptyContext,
  isIgnoredChat,
  jidUser,
  lidPairsOf,
  lidsOf,
  numberOf,
  type ParseContext,
} from './baileys.parse-addresses.js';
export { contentOf, mediaRefSchema, unwrapContent, type MediaRef } from './baileys.parse-content.js';
export {
  ackOfStatus,
  parseMessage,
  parseMessageUpdates,
  parseReactions,
  parseReceipts,
} from './baileys.parse-messages.js';
export { parseContacts, parseGroups } from './baileys.parse-contacts.js';

/**
 * What a live WhatsApp session (Baileys, whatsapp-web.js, or one a gateway holds: Evolution, Wuzapi) offers over HTTP
 * besides sends (client-contract §5.1, §6, §7.1): a group's participants, messages that mention members, group and
 * phone-book sync, number checks. Every call goes through the channels module's live operations
 * (sessions/session-live-ops.ts), which run it here, on the session's owner, or on the gateway. Provider calls never
 * run inside a database transaction.
 *
 * The operations in files: messages.live-groups.ts (the group ticket, its participants), messages.live-mentions.ts
 * (mention sends and their job), messages.live-phonebook.ts (group and contact sync), messages.live-numbers.ts
 * (number checks), messages.live-session.ts (what they share); this file binds them to their deps.
 */
import type { AuthedContext } from '../../platform/http/auth.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import { listParticipants, type TicketRef } from './messages.live-groups.js';
import { runMentionSend, sendMention, type MentionInput, type MentionSendPayload } from './messages.live-mentions.js';
import { checkContacts, contactByNumber } from './messages.live-numbers.js';
import { syncContacts, syncGroups } from './messages.live-phonebook.js';
import type { LiveDeps } from './messages.live-session.js';

export type { Participant, TicketRef } from './messages.live-groups.js';
export { MENTION_SEND_JOB, participantNumber, withMentionTags } from './messages.live-mentions.js';
export type { MentionMode, MentionSendPayload } from './messages.live-mentions.js';
export { isLiveType, isStatefulType, sessionFailure, SYNC_BATCH } from './messages.live-session.js';
export type { LiveDeps } from './messages.live-session.js';

export function createLiveMessaging(deps: LiveDeps) {
  return {
    runMentionSend: (payload: MentionSendPayload) => runMentionSend(deps, payload),
    sendMention: (ctx: AuthedContext, ticketId: number, input: MentionInput) => sendMention(deps, ctx, ticketId, input),
    listParticipants: (ctx: AuthedContext, ref: TicketRef) => listParticipants(deps, ctx, ref),
    syncGroups: (ctx: TenantContext) => syncGroups(deps, ctx),
    syncContacts: (ctx: TenantContext) => syncContacts(deps, ctx),
    checkContacts: (ctx: TenantContext) => checkContacts(deps, ctx),
    contactByNumber: (ctx: TenantContext, number: string) => contactByNumber(deps, ctx, number),
  };
}

export type LiveMessaging = ReturnType<typeof createLiveMessaging>;

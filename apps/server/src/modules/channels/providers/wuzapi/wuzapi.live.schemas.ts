/**
 * Wuzapi's answers to the live operations (groups, phone book, stored history, LIDs) and the HistorySync webhook,
 * as asternic/wuzapi writes them: `data` of the `{code, data, success}` envelope is whatsmeow's Go value serialised by
 * encoding/json (types.GroupInfo, map[JID]types.ContactInfo, the message_history rows), JIDs as `user@server`
 * strings, an empty JID as "", a nil slice as null. HistorySync's `event` is whatsmeow's events.HistorySync: `Data`
 * is the waHistorySync.HistorySync protobuf struct with its proto field names as JSON names (`syncType`,
 * `conversations[].messages[].message`, `progress`), enums and uint64 as numbers. Objects are loose.
 */
import { z } from 'zod';
import { wuzapiMessageContentSchema, wuzapiMessageKeySchema } from './wuzapi.schemas.js';

const jid = z.string().nullish();

/** whatsmeow types.GroupParticipant: JID is the LID in LID-addressed groups, PhoneNumber then the phone JID. */
const groupParticipantSchema = z
  .object({
    JID: jid,
    PhoneNumber: jid,
    LID: jid,
    IsAdmin: z.boolean().optional(),
    IsSuperAdmin: z.boolean().optional(),
    DisplayName: z.string().nullish(),
  })
  .loose();

/** `data` of GET /group/info?groupJID=: whatsmeow types.GroupInfo (GroupName embedded: Name at the top). */
export const wuzapiGroupInfoSchema = z
  .object({
    JID: z.string().min(1),
    Name: z.string().nullish(),
    Participants: z.array(groupParticipantSchema).nullish(),
  })
  .loose();

/** `data` of GET /group/list: the joined groups (null when there is none). */
export const wuzapiGroupListSchema = z.object({ Groups: z.array(wuzapiGroupInfoSchema).nullish() }).loose();

/** `data` of GET /user/contacts: whatsmeow types.ContactInfo by JID (people, LIDs and more as the store has them). */
export const wuzapiContactsSchema = z
  .record(
    z.string(),
    z
      .object({
        Found: z.boolean().optional(),
        FirstName: z.string().nullish(),
        FullName: z.string().nullish(),
        PushName: z.string().nullish(),
        BusinessName: z.string().nullish(),
      })
      .loose(),
  )
  .nullish();

/**
 * `data` of GET /chat/history?chat_jid=&limit=: the stored messages of one chat, newest first (null when none).
 * `data_json` is the events.Message the row was saved from (`{Info, Message, ...}`), "" for our own API sends.
 */
export const wuzapiHistoryRowsSchema = z
  .array(z.object({ chat_jid: z.string(), message_id: z.string(), data_json: z.string().nullish() }).loose())
  .nullish();

/** `data` of GET /chat/history?chat_jid=index: every Wuzapi user's chats, by user id. */
export const wuzapiHistoryIndexSchema = z
  .record(z.string(), z.array(z.object({ chat_jid: z.string() }).loose()).nullish())
  .nullish();

/** `data` of GET /session/status, the part fetchHistory needs: the Wuzapi user id (keys the history index). */
export const wuzapiStatusIdSchema = z.object({ id: z.string().optional() }).loose();

/** `data` of GET /user/lid/{jid}: the LID a phone JID is known by. */
export const wuzapiLidSchema = z.object({ jid: z.string().optional(), lid: z.string().min(1) }).loose();

/** waWeb.WebMessageInfo: a message of the history (key, content, time in unix seconds, the author's push name). */
export const wuzapiWebMessageInfoSchema = z
  .object({
    key: wuzapiMessageKeySchema.extend({ participant: z.string().nullish() }),
    message: wuzapiMessageContentSchema.nullish(),
    messageTimestamp: z.union([z.number(), z.string()]).nullish(),
    participant: z.string().nullish(),
    pushName: z.string().nullish(),
  })
  .loose();

/** waHistorySync.HistorySync.HistorySyncType, by number (encoding/json) or name. */
export const HISTORY_SYNC_TYPES = {
  INITIAL_BOOTSTRAP: 0,
  INITIAL_STATUS_V3: 1,
  FULL: 2,
  RECENT: 3,
  PUSH_NAME: 4,
  NON_BLOCKING_DATA: 5,
  ON_DEMAND: 6,
} as const;

/** events.HistorySync: `{Data: HistorySync}`. */
export const wuzapiHistorySyncEventSchema = z
  .object({
    Data: z
      .object({
        syncType: z.union([z.number(), z.string()]),
        conversations: z
          .array(
            z
              .object({
                ID: z.string().min(1),
                /** LID chats: the phone JID of the partner, when WhatsApp gives it. */
                pnJID: z.string().nullish(),
                messages: z
                  .array(z.object({ message: z.unknown().optional(), msgOrderID: z.unknown().optional() }).loose())
                  .nullish(),
              })
              .loose(),
          )
          .nullish(),
        progress: z.number().nullish(),
        chunkOrder: z.number().nullish(),
        phoneNumberToLidMappings: z
          .array(z.object({ pnJID: z.string().nullish(), lidJID: z.string().nullish() }).loose())
          .nullish(),
      })
      .loose(),
  })
  .loose();
export type WuzapiHistorySyncEvent = z.infer<typeof wuzapiHistorySyncEventSchema>;

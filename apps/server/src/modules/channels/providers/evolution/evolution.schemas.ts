/**
 * The parts of Evolution API v2 (github.com/EvolutionAPI/evolution-api, Baileys integration) this adapter reads:
 * the webhook envelope `{ event, instance, data, ... }` and the answers of the REST calls it makes. Objects are loose:
 * Evolution forwards Baileys' message objects as they are, and an unknown field must never turn a customer's message
 * into a 400. Numbers that are protobuf longs may arrive as numbers, numeric strings or `{ low, high }` objects.
 */
import { z } from 'zod';

/** A protobuf long as JSON: a number, a numeric string or `{ low, high, unsigned }`. */
export const longSchema = z.union([
  z.number(),
  z.string().regex(/^\d+$/).transform(Number),
  z
    .object({ low: z.number(), high: z.number() })
    .loose()
    .transform((v) => v.high * 2 ** 32 + (v.low >>> 0)),
]);

/** Baileys' message key; `remoteJidAlt`/`participantAlt` (Baileys 7) or `senderPn` carry the phone JID of a LID. */
export const evoKeySchema = z
  .object({
    remoteJid: z.string().min(1),
    fromMe: z.boolean().default(false),
    id: z.string().min(1).max(200),
    participant: z.string().nullish(),
    remoteJidAlt: z.string().nullish(),
    participantAlt: z.string().nullish(),
    senderPn: z.string().nullish(),
    addressingMode: z.string().nullish(),
  })
  .loose();
export type EvoKey = z.infer<typeof evoKeySchema>;

const contextInfoSchema = z
  .object({ stanzaId: z.string().nullish(), participant: z.string().nullish() })
  .loose()
  .nullish();

const mediaFields = {
  mimetype: z.string().nullish(),
  caption: z.string().nullish(),
  fileName: z.string().nullish(),
  fileLength: longSchema.nullish().catch(null),
  contextInfo: contextInfoSchema,
};
const mediaSchema = z.object(mediaFields).loose();

/** The content kinds this adapter turns into messages; any other key is ignored. */
export const evoMessageContentSchema = z
  .object({
    conversation: z.string().nullish(),
    extendedTextMessage: z.object({ text: z.string(), contextInfo: contextInfoSchema }).loose().nullish(),
    imageMessage: mediaSchema.nullish(),
    videoMessage: mediaSchema.extend({ gifPlayback: z.boolean().nullish() }).nullish(),
    audioMessage: mediaSchema.extend({ ptt: z.boolean().nullish() }).nullish(),
    documentMessage: mediaSchema.nullish(),
    stickerMessage: mediaSchema.nullish(),
    locationMessage: z
      .object({
        degreesLatitude: z.number(),
        degreesLongitude: z.number(),
        name: z.string().nullish(),
        address: z.string().nullish(),
        contextInfo: contextInfoSchema,
      })
      .loose()
      .nullish(),
    liveLocationMessage: z
      .object({ degreesLatitude: z.number(), degreesLongitude: z.number(), contextInfo: contextInfoSchema })
      .loose()
      .nullish(),
    contactMessage: z
      .object({ displayName: z.string().nullish(), vcard: z.string(), contextInfo: contextInfoSchema })
      .loose()
      .nullish(),
    contactsArrayMessage: z
      .object({
        displayName: z.string().nullish(),
        contacts: z.array(z.object({ displayName: z.string().nullish(), vcard: z.string() }).loose()),
      })
      .loose()
      .nullish(),
    reactionMessage: z.object({ key: evoKeySchema, text: z.string().nullish() }).loose().nullish(),
    protocolMessage: z.unknown().optional(),
    editedMessage: z.unknown().optional(),
    ephemeralMessage: z.unknown().optional(),
    viewOnceMessage: z.unknown().optional(),
    viewOnceMessageV2: z.unknown().optional(),
    viewOnceMessageV2Extension: z.unknown().optional(),
    documentWithCaptionMessage: z.unknown().optional(),
  })
  .loose();
export type EvoMessageContent = z.infer<typeof evoMessageContentSchema>;

/** `messages.upsert` data: Evolution's `prepareMessage` output. */
export const evoMessageSchema = z
  .object({
    key: evoKeySchema,
    pushName: z.string().nullish(),
    message: z.record(z.string(), z.unknown()).nullish(),
    contextInfo: contextInfoSchema,
    messageType: z.string().nullish(),
    messageTimestamp: longSchema.nullish(),
  })
  .loose();
export type EvoMessage = z.infer<typeof evoMessageSchema>;

/** A protocolMessage (revoke or edit), `messages.edited` data. Enums arrive as names or numbers. */
export const evoProtocolMessageSchema = z
  .object({
    key: evoKeySchema,
    type: z.union([z.string(), z.number()]).nullish(),
    editedMessage: z.record(z.string(), z.unknown()).nullish(),
    timestampMs: longSchema.nullish().catch(null),
  })
  .loose();
export type EvoProtocolMessage = z.infer<typeof evoProtocolMessageSchema>;

/** `messages.update` data: one status change of one message. */
export const evoMessageUpdateSchema = z
  .object({
    keyId: z.string().min(1),
    remoteJid: z.string().nullish(),
    fromMe: z.boolean().nullish(),
    participant: z.string().nullish(),
    status: z.string().nullish(),
  })
  .loose();

/** `messages.delete` data: the revoked message's key, or (a delete made through the API) the stored record. */
export const evoStoredMessageSchema = z.object({ key: evoKeySchema }).loose();

export const evoConnectionUpdateSchema = z
  .object({
    state: z.string(),
    statusReason: z.number().nullish(),
    wuid: z.string().nullish(),
    profileName: z.string().nullish(),
    profilePictureUrl: z.string().nullish(),
  })
  .loose();

/** `qrcode.updated` data: the new code, or (the QR code limit reached: the login ends) a message. */
export const evoQrcodeUpdatedSchema = z
  .object({
    qrcode: z
      .object({ code: z.string().nullish(), base64: z.string().nullish(), pairingCode: z.string().nullish() })
      .loose()
      .optional(),
    message: z.string().optional(),
  })
  .loose();

export const evoContactSchema = z
  .object({ remoteJid: z.string(), pushName: z.string().nullish(), profilePicUrl: z.string().nullish() })
  .loose();

/** Every webhook call (webhook_by_events off): the event name, the instance and its data. */
export const evoWebhookSchema = z
  .object({
    event: z.string().min(1).max(100),
    instance: z.string().max(255).nullish(),
    data: z.unknown(),
    date_time: z.string().nullish(),
  })
  .loose();

// ---------- REST answers ----------

/** Error answers: `{ status, error, response: { message } }`. */
export const evoErrorSchema = z
  .object({ status: z.number().optional(), error: z.string().optional(), response: z.unknown().optional() })
  .loose();

export const evoQrcodeSchema = z
  .object({
    code: z.string().nullish(),
    base64: z.string().nullish(),
    pairingCode: z.string().nullish(),
    count: z.number().nullish(),
  })
  .loose();
export type EvoQrcode = z.infer<typeof evoQrcodeSchema>;

export const evoConnectionStateSchema = z
  .object({ instance: z.object({ instanceName: z.string().optional(), state: z.string().nullish() }).loose() })
  .loose();

/** `GET /instance/connect/{instance}`: the QR code, or the connection state when already open. */
export const evoConnectAnswerSchema = evoQrcodeSchema.extend({
  instance: z.object({ state: z.string().nullish() }).loose().optional(),
});

export const evoCreateAnswerSchema = z
  .object({
    instance: z.object({ instanceName: z.string(), status: z.string().nullish() }).loose(),
    qrcode: evoQrcodeSchema.nullish(),
  })
  .loose();

export const evoInstancesSchema = z.array(
  z
    .object({
      name: z.string(),
      connectionStatus: z.string().nullish(),
      ownerJid: z.string().nullish(),
      profileName: z.string().nullish(),
      profilePicUrl: z.string().nullish(),
      /** The instance's own token, listed only when the server exposes them (AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES). */
      token: z.string().nullish(),
    })
    .loose(),
);

/** The answer of every send: the sent message with its key. */
export const evoSentSchema = z
  .object({ key: evoKeySchema, messageTimestamp: longSchema.nullish().catch(null) })
  .loose();

export const evoBase64Schema = z
  .object({ base64: z.string(), mimetype: z.string().nullish(), fileName: z.string().nullish() })
  .loose();

export const evoFindMessagesSchema = z
  .object({ messages: z.object({ records: z.array(z.object({ key: evoKeySchema }).loose()) }).loose() })
  .loose();

/** `POST /chat/whatsappNumbers/{instance}`: one entry per number asked (OnWhatsAppDto). */
export const evoWhatsappNumbersSchema = z.array(
  z.object({ jid: z.string(), exists: z.boolean(), number: z.string(), name: z.string().nullish() }).loose(),
);

/**
 * `GET /group/participants/{instance}?groupJid=`: Baileys' group participants as they are (plus Evolution's name and
 * picture); in a group addressed by LID the `id` is the LID and `phoneNumber` the phone JID (Baileys 7).
 */
export const evoParticipantsSchema = z
  .object({
    participants: z.array(
      z
        .object({
          id: z.string(),
          phoneNumber: z.string().nullish(),
          admin: z.string().nullish(),
          name: z.string().nullish(),
          notify: z.string().nullish(),
        })
        .loose(),
    ),
  })
  .loose();

/** `GET /group/fetchAllGroups/{instance}?getParticipants=false`: the groups with their member count. */
export const evoGroupsSchema = z.array(
  z.object({ id: z.string(), subject: z.string().nullish(), size: z.number().int().nonnegative().nullish() }).loose(),
);

/** `POST /chat/findContacts/{instance}`: the instance's stored contacts (people, groups, group members). */
export const evoContactsSchema = z.array(z.object({ remoteJid: z.string(), pushName: z.string().nullish() }).loose());

/** `POST /chat/findMessages/{instance}`: one page of stored messages (prepareMessage records), newest first. */
export const evoMessagesPageSchema = z
  .object({
    messages: z
      .object({ total: z.number(), pages: z.number(), currentPage: z.number(), records: z.array(z.unknown()) })
      .loose(),
  })
  .loose();

/** The webhook events the channel registers (Evolution's upper-case names). */
export const EVOLUTION_WEBHOOK_EVENTS = [
  'QRCODE_UPDATED',
  'CONNECTION_UPDATE',
  'MESSAGES_UPSERT',
  'MESSAGES_UPDATE',
  'MESSAGES_DELETE',
  'MESSAGES_EDITED',
  'CONTACTS_UPSERT',
] as const;

/** The login's history (`messages.set`), registered only when the channel imports it (importMessages). */
export const EVOLUTION_HISTORY_EVENT = 'MESSAGES_SET';

/** The header Evolution sends back with every webhook (configured by webhook/set): the channel's secret. */
export const EVOLUTION_SECRET_HEADER = 'x-conversa-webhook-secret';

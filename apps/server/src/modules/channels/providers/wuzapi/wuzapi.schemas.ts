/**
 * The parts of Wuzapi (github.com/asternic/wuzapi) this adapter reads: its REST answers (`{code, data, success}`)
 * and its webhook bodies. A webhook carries `{type, event, ...}`, either as the JSON body or (Wuzapi's default) as
 * the form field `jsonData`; `event` is whatsmeow's event serialised by Go's encoding/json: MessageInfo and Receipt
 * fields in Go casing, the message itself in the protobuf JSON names (`conversation`, `imageMessage`, `stanzaID`...),
 * bytes in base64, enums as numbers. Objects are loose: an unknown field must never turn a message into a 400.
 */
import { z } from 'zod';

/** Every REST answer: `data` on success, `error` otherwise. */
export const wuzapiEnvelopeSchema = z
  .object({
    code: z.number().optional(),
    success: z.boolean().optional(),
    data: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .loose();

/** `data` of /chat/send/*: the message id and the server time (unix seconds; RFC 3339 in older releases). */
export const wuzapiSentSchema = z
  .object({ Id: z.string().min(1), Timestamp: z.union([z.number(), z.string()]).optional() })
  .loose();

/** `data` of /session/status (lower case since the user cache; Connected/LoggedIn in older releases). */
export const wuzapiStatusSchema = z
  .object({
    connected: z.boolean().optional(),
    loggedIn: z.boolean().optional(),
    Connected: z.boolean().optional(),
    LoggedIn: z.boolean().optional(),
    jid: z.string().optional(),
    name: z.string().optional(),
    /** The Wuzapi user's id (newer releases), named `userID` in its JSON webhooks. */
    id: z.union([z.string(), z.number()]).optional(),
  })
  .loose();

export const wuzapiQrSchema = z.object({ QRCode: z.string() }).loose();
export const wuzapiPairSchema = z.object({ LinkingCode: z.string().min(1) }).loose();
/** `data` of /user/check: per number asked, whether it is on WhatsApp and the JID it is known by. */
export const wuzapiCheckSchema = z
  .object({
    Users: z.array(
      z.object({ IsInWhatsapp: z.boolean(), JID: z.string().nullish(), Query: z.string().nullish() }).loose(),
    ),
  })
  .loose();
/** `data` of /chat/download*: a data URL (`data:<mime>;base64,...`). */
export const wuzapiDownloadSchema = z.object({ Data: z.string(), Mimetype: z.string().optional() }).loose();

/** The webhook as Wuzapi sends it in form mode: the event JSON in `jsonData`. */
export const wuzapiFormBodySchema = z
  .object({ jsonData: z.string().min(2), token: z.string().optional(), instanceName: z.string().optional() })
  .loose();

export const wuzapiWebhookSchema = z
  .object({
    type: z.string().min(1),
    event: z.unknown(),
    /** ReadReceipt: Delivered, Read, ReadSelf (Played in newer releases). */
    state: z.string().optional(),
    /** QR: the code as a PNG data URL, beside `event` ("code"). */
    qrCodeBase64: z.string().optional(),
  })
  .loose();

const jid = z.string();

/** whatsmeow types.MessageInfo (MessageSource embedded, so its fields sit at the top). */
export const wuzapiMessageInfoSchema = z
  .object({
    Chat: jid.min(1),
    Sender: jid.optional().default(''),
    IsFromMe: z.boolean().optional().default(false),
    IsGroup: z.boolean().optional().default(false),
    /** With LID addressing, the phone JID of the sender (and of the chat partner on our own messages). */
    SenderAlt: jid.optional().default(''),
    RecipientAlt: jid.optional().default(''),
    AddressingMode: z.string().optional(),
    ID: z.string().min(1),
    Type: z.string().optional(),
    PushName: z.string().optional().default(''),
    Timestamp: z.string(),
    /** "" plain, "1" edit, "7" sender revoke, "8" admin revoke. */
    Edit: z.string().optional(),
  })
  .loose();

const contextInfoSchema = z
  .object({ stanzaID: z.string().optional(), participant: z.string().optional(), remoteJID: z.string().optional() })
  .loose();

/** Media fields of whatsmeow's image/video/audio/document/sticker messages: what the download endpoints take. */
const mediaFields = {
  URL: z.string().optional(),
  directPath: z.string().optional(),
  mediaKey: z.string().optional(),
  mimetype: z.string().optional(),
  fileEncSHA256: z.string().optional(),
  fileSHA256: z.string().optional(),
  fileLength: z.union([z.number(), z.string()]).optional(),
  caption: z.string().optional(),
  contextInfo: contextInfoSchema.optional(),
};

export const wuzapiMessageKeySchema = z
  .object({ remoteJID: z.string().optional(), fromMe: z.boolean().optional(), ID: z.string().min(1) })
  .loose();

/** waE2E.Message: the kinds the inbox shows; anything else is skipped. */
export interface WuzapiMessageContent {
  conversation?: string;
  extendedTextMessage?: { text?: string; contextInfo?: z.infer<typeof contextInfoSchema> };
  imageMessage?: WuzapiMedia;
  videoMessage?: WuzapiMedia;
  audioMessage?: WuzapiMedia & { PTT?: boolean };
  documentMessage?: WuzapiMedia & { fileName?: string; title?: string };
  stickerMessage?: WuzapiMedia;
  locationMessage?: { degreesLatitude?: number; degreesLongitude?: number; name?: string; address?: string };
  liveLocationMessage?: { degreesLatitude?: number; degreesLongitude?: number; caption?: string };
  contactMessage?: { displayName?: string; vcard?: string };
  contactsArrayMessage?: { displayName?: string; contacts?: { displayName?: string; vcard?: string }[] };
  reactionMessage?: { key?: z.infer<typeof wuzapiMessageKeySchema>; text?: string };
  protocolMessage?: {
    key?: z.infer<typeof wuzapiMessageKeySchema>;
    type?: number | string;
    editedMessage?: WuzapiMessageContent;
  };
  ephemeralMessage?: { message?: WuzapiMessageContent };
  viewOnceMessage?: { message?: WuzapiMessageContent };
  viewOnceMessageV2?: { message?: WuzapiMessageContent };
  viewOnceMessageV2Extension?: { message?: WuzapiMessageContent };
  documentWithCaptionMessage?: { message?: WuzapiMessageContent };
  editedMessage?: { message?: WuzapiMessageContent };
}
export type WuzapiMedia = z.infer<z.ZodObject<typeof mediaFields>>;

const mediaSchema = z.object(mediaFields).loose();
const wrapper = () => z.object({ message: wuzapiMessageContentSchema.optional() }).loose().optional();

export const wuzapiMessageContentSchema: z.ZodType<WuzapiMessageContent> = z.lazy(() =>
  z
    .object({
      conversation: z.string().optional(),
      extendedTextMessage: z
        .object({ text: z.string().optional(), contextInfo: contextInfoSchema.optional() })
        .loose()
        .optional(),
      imageMessage: mediaSchema.optional(),
      videoMessage: mediaSchema.optional(),
      audioMessage: mediaSchema.extend({ PTT: z.boolean().optional() }).optional(),
      documentMessage: mediaSchema.extend({ fileName: z.string().optional(), title: z.string().optional() }).optional(),
      stickerMessage: mediaSchema.optional(),
      locationMessage: z
        .object({
          degreesLatitude: z.number().optional(),
          degreesLongitude: z.number().optional(),
          name: z.string().optional(),
          address: z.string().optional(),
        })
        .loose()
        .optional(),
      liveLocationMessage: z
        .object({
          degreesLatitude: z.number().optional(),
          degreesLongitude: z.number().optional(),
          caption: z.string().optional(),
        })
        .loose()
        .optional(),
      contactMessage: z.object({ displayName: z.string().optional(), vcard: z.string().optional() }).loose().optional(),
      contactsArrayMessage: z
        .object({
          displayName: z.string().optional(),
          contacts: z
            .array(z.object({ displayName: z.string().optional(), vcard: z.string().optional() }).loose())
            .optional(),
        })
        .loose()
        .optional(),
      reactionMessage: z
        .object({ key: wuzapiMessageKeySchema.optional(), text: z.string().optional() })
        .loose()
        .optional(),
      protocolMessage: z
        .object({
          key: wuzapiMessageKeySchema.optional(),
          type: z.union([z.number(), z.string()]).optional(),
          editedMessage: wuzapiMessageContentSchema.optional(),
        })
        .loose()
        .optional(),
      ephemeralMessage: wrapper(),
      viewOnceMessage: wrapper(),
      viewOnceMessageV2: wrapper(),
      viewOnceMessageV2Extension: wrapper(),
      documentWithCaptionMessage: wrapper(),
      editedMessage: wrapper(),
    })
    .loose(),
);

/** events.Message. */
export const wuzapiMessageEventSchema = z
  .object({
    Info: wuzapiMessageInfoSchema,
    Message: wuzapiMessageContentSchema.nullish(),
    IsEdit: z.boolean().optional(),
    IsViewOnce: z.boolean().optional(),
    IsEphemeral: z.boolean().optional(),
  })
  .loose();

/** events.Receipt (MessageSource embedded). */
export const wuzapiReceiptEventSchema = z
  .object({
    MessageIDs: z.array(z.string().min(1)),
    Timestamp: z.string().optional(),
    Type: z.string().optional(),
    Chat: z.string().optional(),
    IsFromMe: z.boolean().optional(),
  })
  .loose();

/** events.PairSuccess: the paired JID. */
export const wuzapiPairSuccessSchema = z.object({ ID: z.string().optional() }).loose();

/** The media reference stored with an inbound message: what /chat/download* needs to fetch and decrypt it. */
export const wuzapiMediaRefSchema = z.object({
  kind: z.enum(['image', 'video', 'audio', 'document']),
  Url: z.string().optional(),
  DirectPath: z.string().optional(),
  MediaKey: z.string().min(1),
  Mimetype: z.string(),
  FileEncSHA256: z.string().optional(),
  FileSHA256: z.string().min(1),
  FileLength: z.number().int().nonnegative(),
});
export type WuzapiMediaRef = z.infer<typeof wuzapiMediaRefSchema>;

/** Events the connection subscribes to (`Subscribe` of /session/connect, `events` of /webhook). */
export const WUZAPI_EVENTS = [
  'Message',
  'ReadReceipt',
  'Connected',
  'PairSuccess',
  'QR',
  'QRTimeout',
  'LoggedOut',
  'Disconnected',
  'ConnectFailure',
  'ClientOutdated',
  'TemporaryBan',
  'StreamReplaced',
];

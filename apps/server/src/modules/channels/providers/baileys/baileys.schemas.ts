/**
 * The parts of baileys' objects the parser reads (baileys.parse.ts), one loose zod schema per object: the library's
 * protobuf classes carry many more fields, and a field we do not read must never make a message unreadable. Numbers
 * arrive as protobufjs Longs, bigints or strings and leave as numbers; bytes as Uint8Arrays or base64 strings.
 */
import { z } from 'zod';

/** protobufjs' Long, a number or a numeric string -> number. */
export const longSchema = z
  .union([z.number(), z.bigint(), z.string(), z.looseObject({ low: z.number(), high: z.number() })])
  .transform((v) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint' || typeof v === 'string') return Number(v);
    const long = v as { low: number; high: number; unsigned?: boolean; toNumber?: () => number };
    if (typeof long.toNumber === 'function') return long.toNumber();
    return long.high * 2 ** 32 + (long.low >>> 0);
  });
/** Any object, protobuf class instances included (z.record accepts plain objects only). */
export const objectSchema = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array),
);
const bytesSchema = z.union([z.instanceof(Uint8Array), z.string()]);
export const str = z.string().nullish();

export const keySchema = z.looseObject({
  remoteJid: z.string(),
  fromMe: z.boolean().nullish(),
  id: z.string(),
  participant: str,
  remoteJidAlt: str,
  participantAlt: str,
  senderPn: str,
  participantPn: str,
});
export type Key = z.infer<typeof keySchema>;

export const contextInfoSchema = z.looseObject({ stanzaId: str }).nullish();
export const mediaSchema = z.looseObject({
  url: str,
  directPath: str,
  mediaKey: bytesSchema.nullish(),
  mimetype: str,
  fileName: str,
  caption: str,
  fileLength: longSchema.nullish(),
  ptt: z.boolean().nullish(),
  contextInfo: contextInfoSchema,
});
export type Media = z.infer<typeof mediaSchema>;

export const messageSchema = z.looseObject({
  key: keySchema,
  message: objectSchema.nullish(),
  messageTimestamp: longSchema.nullish(),
  pushName: str,
  participant: str,
  messageStubType: z.number().nullish(),
});
export type Message = z.infer<typeof messageSchema>;

export const protocolSchema = z.looseObject({
  type: z.union([z.number(), z.string()]).nullish(),
  key: z.looseObject({ id: z.string() }).nullish(),
  editedMessage: objectSchema.nullish(),
  timestampMs: longSchema.nullish(),
});
export const reactionSchema = z.looseObject({
  key: z.looseObject({ id: z.string() }).nullish(),
  text: z.string().nullish(),
  senderTimestampMs: longSchema.nullish(),
});

export const updateSchema = z.looseObject({
  key: keySchema,
  update: z.looseObject({
    status: z.number().nullish(),
    message: objectSchema.nullish(),
    messageStubType: z.number().nullish(),
    messageTimestamp: longSchema.nullish(),
  }),
});

export const receiptSchema = z.looseObject({
  key: keySchema,
  receipt: z.looseObject({
    receiptTimestamp: longSchema.nullish(),
    readTimestamp: longSchema.nullish(),
    playedTimestamp: longSchema.nullish(),
  }),
});

export const reactionEventSchema = z.looseObject({
  key: keySchema,
  reaction: z.looseObject({
    key: keySchema.nullish(),
    text: z.string().nullish(),
    senderTimestampMs: longSchema.nullish(),
  }),
});

export const contactSchema = z.looseObject({
  id: z.string(),
  lid: str,
  phoneNumber: str,
  name: str,
  notify: str,
  verifiedName: str,
});

export const groupSchema = z.looseObject({ id: z.string(), subject: z.string().nullish() });

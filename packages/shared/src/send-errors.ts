/**
 * Why a send was given up (a message's `sendError`, issue 23): the server stores one of these codes for the reasons
 * it knows (its own checks and the providers' known refusals), a catalogue code (e.g. ERR_WAPP_NOT_INITIALIZED,
 * ERR_MEDIA_QUOTA_EXCEEDED), or else the provider's own text. The web shows the codes translated and a provider's
 * text as the detail of a translated sentence.
 */
export const SEND_ERROR_CODES = [
  'SEND_NO_CHANNEL',
  'SEND_NO_CONTACT_ID',
  'SEND_NO_GROUP',
  'SEND_MEDIA_MISSING',
  'SEND_MEDIA_TOO_LARGE',
  'SEND_EMPTY_MESSAGE',
  'SEND_NOT_ON_WHATSAPP',
  'SEND_CHANNEL_NOT_CONFIGURED',
] as const;
export type SendErrorCode = (typeof SEND_ERROR_CODES)[number];

export function isSendErrorCode(value: unknown): value is SendErrorCode {
  return typeof value === 'string' && (SEND_ERROR_CODES as readonly string[]).includes(value);
}

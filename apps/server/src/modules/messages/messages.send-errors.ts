/**
 * The reason stored on a message whose send was given up (`sendError`, issue 23): a code of SEND_ERROR_CODES for the
 * reasons this product knows (the send job's own checks, the adapters' known refusals), a catalogue code as thrown,
 * else the provider's text cut to a log line. The web translates codes; a provider's text is shown as its detail.
 */
import { isErrorCode, type SendErrorCode } from '@conversa/shared';
import { ProviderError } from '../channels/index.js';
import { shortError } from './messages.pipeline.js';

/** Our own ProviderError texts (send job and adapters) and the code each stands for. */
const KNOWN_REASONS: [RegExp, SendErrorCode][] = [
  [/^the message has no channel$/, 'SEND_NO_CHANNEL'],
  [/^the contact has no id on this channel$/, 'SEND_NO_CONTACT_ID'],
  [/^waba: the contact has no valid number$/, 'SEND_NO_CONTACT_ID'],
  [/^the message has no group to go to$/, 'SEND_NO_GROUP'],
  [/^stored media is missing$/, 'SEND_MEDIA_MISSING'],
  [/^media larger than MEDIA_MAX_BYTES$/, 'SEND_MEDIA_TOO_LARGE'],
  [/^[\w.-]+( download)?: file too large$/, 'SEND_MEDIA_TOO_LARGE'],
  [/^[\w.-]+( send)?: empty message$/, 'SEND_EMPTY_MESSAGE'],
  [/^[\w.-]+: the number is not on WhatsApp$/, 'SEND_NOT_ON_WHATSAPP'],
  [
    /^[\w.-]+: (the channel has no (bot token|access token|page access token|user token|API key|API URL)|no API token( \(tenant hubToken\))?|invalid API URL|the channel names no hub channel)$/,
    'SEND_CHANNEL_NOT_CONFIGURED',
  ],
];

export function sendErrorReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (isErrorCode(text)) return text;
  if (error instanceof ProviderError) {
    for (const [pattern, code] of KNOWN_REASONS) if (pattern.test(text)) return code;
  }
  return shortError(error);
}

/**
 * How the library's failures read to the product (baileys.driver.ts): the status code of a close -> why the session
 * ended (the host decides about reconnecting), a thrown library error -> a ProviderError that says whether a retry
 * can help, and WhatsApp's answers for a chat without a visible picture.
 */
import { DisconnectReason } from 'baileys';
import { ProviderError } from '../../channels.adapter.js';
import type { SessionCloseReason } from '../../sessions/session-driver.js';

/** DisconnectReason status code -> why the session ended (restartRequired never gets here). */
export function closeReasonOf(statusCode: number | undefined, loggedIn: boolean): SessionCloseReason {
  switch (statusCode) {
    case DisconnectReason.loggedOut:
    case DisconnectReason.forbidden:
    case DisconnectReason.multideviceMismatch:
      return 'logged-out';
    case DisconnectReason.connectionReplaced:
      return 'conflict';
    case DisconnectReason.timedOut:
      // 408 is both "QR refs attempts ended" (nobody scanned) and a lost connection of a logged-in session.
      return loggedIn ? 'lost' : 'timeout';
    default:
      return 'lost';
  }
}

export const statusCodeOf = (error: unknown): number | undefined =>
  (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;

/** A library failure as a ProviderError: 4xx answers are permanent (bad JID, gone media), the rest transient. */
export function providerError(what: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = statusCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const permanent = status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
  return new ProviderError(`baileys ${what}: ${message}`, permanent, status);
}

/**
 * WhatsApp's answer to a picture query of a chat without one (`item-not-found`, 404) or that hides it from us
 * (`not-authorized`, 401): the library throws it as a Boom whose `data` is the IQ error code.
 */
export function noPicture(error: unknown): boolean {
  const code = (error as { data?: unknown } | undefined)?.data;
  return code === 404 || code === 401;
}

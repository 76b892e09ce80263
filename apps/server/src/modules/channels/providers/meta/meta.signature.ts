/**
 * What every Meta webhook shares (WhatsApp Cloud API, Messenger, Instagram): POSTs are signed with the app secret in
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`, and the subscription is verified by a GET carrying
 * `hub.mode=subscribe`, `hub.verify_token` and `hub.challenge` (answered with the challenge as plain text).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';

/** True when the header is the HMAC-SHA256 of `rawBody` under one of `secrets` (constant-time per secret). */
export function verifyMetaSignature(
  rawBody: Buffer | undefined,
  header: string | string[] | undefined,
  secrets: readonly (string | null | undefined)[],
): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (!rawBody || !value || !value.startsWith(PREFIX)) return false;
  const given = Buffer.from(value.slice(PREFIX.length), 'hex');
  if (given.length !== 32) return false;
  let ok = false;
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    // Every secret is compared (no early exit), so the time does not tell which one matched.
    ok = timingSafeEqual(expected, given) || ok;
  }
  return ok;
}

/** The signature header value of `body` under `secret` (simulators and tests sign with it). */
export function signMetaBody(body: Buffer | string, secret: string): string {
  return PREFIX + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The verify token of a channel's own webhook URL, shown to the admin to paste into Meta's dashboard: derived from the
 * channel's webhook secret (never the secret itself, which stays write-only).
 */
export function metaVerifyTokenOf(webhookSecret: string): string {
  return createHmac('sha256', webhookSecret).update('meta-verify-token').digest('hex').slice(0, 32);
}

/**
 * Meta's verification GET: the challenge to answer when the mode is `subscribe` and the token matches (constant
 * time), else null (answer 403).
 */
export function answerMetaVerification(
  query: Record<string, unknown>,
  expectedToken: string | null | undefined,
): string | null {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || !expectedToken) return null;
  const a = Buffer.from(token);
  const b = Buffer.from(expectedToken);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return challenge.length <= 200 ? challenge : null;
}

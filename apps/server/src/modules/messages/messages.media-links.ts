/**
 * Signed media links: `<PUBLIC_URL>/api/media/<token>`, absolute because clients open them directly (client-contract
 * §20.3), maybe from another origin than the API's; the token is the tenant, the message id and an expiry (1 hour),
 * HMAC-SHA256-signed with a key derived from the JWT secret. The media route is public because <img>/<audio> tags
 * cannot send a bearer token: the link itself is the credential, and it expires.
 */
import crypto from 'node:crypto';
import { z } from 'zod';

export const MEDIA_LINK_TTL_SECONDS = 60 * 60;

const claimsSchema = z.object({
  t: z.number().int().positive(),
  m: z.number().int().positive(),
  exp: z.number().int(),
});
export interface MediaClaims {
  tenantId: number;
  messageId: number;
  exp: number;
}

export type MediaLinkCheck = { ok: true; claims: MediaClaims } | { ok: false; reason: 'forged' | 'expired' };

export interface MediaLinks {
  /** The URL of a message's stored media, valid for MEDIA_LINK_TTL_SECONDS. */
  url(tenantId: number, messageId: number, now?: number): string;
  sign(claims: MediaClaims): string;
  verify(token: string, now?: number): MediaLinkCheck;
}

/**
 * `publicUrl`: the server's public address (config.publicUrl, no trailing slash), which the app always passes; left
 * out (code that only signs or verifies tokens) the links are relative.
 */
export function createMediaLinks(secret: string, publicUrl = ''): MediaLinks {
  // A key of its own: a token of another feature (contact export) can never pass as a media token.
  const key = crypto.createHmac('sha256', secret).update('media-links.v1').digest();
  const mac = (body: string) => crypto.createHmac('sha256', key).update(body).digest();

  const sign = (claims: MediaClaims): string => {
    const body = Buffer.from(JSON.stringify({ t: claims.tenantId, m: claims.messageId, exp: claims.exp })).toString(
      'base64url',
    );
    return `${body}.${mac(body).toString('base64url')}`;
  };

  return {
    sign,
    url(tenantId, messageId, now = Date.now()) {
      const exp = Math.floor(now / 1000) + MEDIA_LINK_TTL_SECONDS;
      return `${publicUrl}/api/media/${sign({ tenantId, messageId, exp })}`;
    },
    verify(token, now = Date.now()) {
      const [body, signature, extra] = token.split('.');
      if (!body || !signature || extra !== undefined) return { ok: false, reason: 'forged' };
      const expected = mac(body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
        return { ok: false, reason: 'forged' };
      }
      const parsed = claimsSchema.safeParse(safeJson(Buffer.from(body, 'base64url').toString('utf8')));
      if (!parsed.success) return { ok: false, reason: 'forged' };
      const claims = { tenantId: parsed.data.t, messageId: parsed.data.m, exp: parsed.data.exp };
      return claims.exp * 1000 > now ? { ok: true, claims } : { ok: false, reason: 'expired' };
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

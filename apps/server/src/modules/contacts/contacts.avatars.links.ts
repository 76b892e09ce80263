/**
 * The URL of a contact's stored picture: `<PUBLIC_URL>/api/contacts/avatar/<token>`, the token being the tenant, the
 * contact and the stored key, HMAC-SHA256-signed with a key of its own derived from the JWT secret. No expiry: clients
 * keep contact rows (and the URL in them) as long as they like; a replaced picture is stored under a new key, so its
 * URL changes and the old one stops working. Public because an <img> cannot send a bearer token: the URL is the
 * credential, it cannot be guessed (it names a random-looking key) nor forged (the signature).
 */
import crypto from 'node:crypto';
import { z } from 'zod';

export const AVATAR_PATH = '/api/contacts/avatar/';

const claimsSchema = z.object({
  t: z.number().int().positive(),
  c: z.number().int().positive(),
  k: z.string().min(1).max(250),
});

export interface AvatarClaims {
  tenantId: number;
  contactId: number;
  /** The media store key of the picture. */
  key: string;
}

export interface AvatarLinks {
  url(claims: AvatarClaims): string;
  /** The claims of a token this server signed; null for anything else. */
  verify(token: string): AvatarClaims | null;
}

/** `publicUrl`: the server's public address (no trailing slash); left out, the URLs are relative. */
export function createAvatarLinks(secret: string, publicUrl = ''): AvatarLinks {
  // A key of its own: a media link's or an export's token can never pass as an avatar token, nor the reverse.
  const key = crypto.createHmac('sha256', secret).update('contact-avatars.v1').digest();
  const mac = (body: string) => crypto.createHmac('sha256', key).update(body).digest();

  return {
    url({ tenantId, contactId, key: stored }) {
      const body = Buffer.from(JSON.stringify({ t: tenantId, c: contactId, k: stored })).toString('base64url');
      return `${publicUrl}${AVATAR_PATH}${body}.${mac(body).toString('base64url')}`;
    },
    verify(token) {
      const [body, signature, extra] = token.split('.');
      if (!body || !signature || extra !== undefined) return null;
      const expected = mac(body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
      const parsed = claimsSchema.safeParse(safeJson(Buffer.from(body, 'base64url').toString('utf8')));
      if (!parsed.success) return null;
      const claims = { tenantId: parsed.data.t, contactId: parsed.data.c, key: parsed.data.k };
      // Keys are `<tenantId>/...` (media-store.ts): a signed key of another tenant is never served.
      return claims.key.startsWith(`${claims.tenantId}/`) ? claims : null;
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

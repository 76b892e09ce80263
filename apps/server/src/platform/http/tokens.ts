/**
 * Access tokens: short-lived HS256 JWTs carrying the user, tenant, profile and the login session (`sid`, the refresh
 * token family) they were issued for: a socket lives as long as that session.
 */
import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { PROFILES, type Profile } from '@conversa/shared';
import { fail } from './errors.js';

export interface AccessClaims {
  userId: number;
  tenantId: number;
  profile: Profile;
  tokenVersion: number;
  /** The refresh-token family of the login session; absent only in tokens issued before sessions were named. */
  sessionId?: string | undefined;
  /**
   * The refresh token (row id) issued together with this access token: a client without the refresh cookie refreshes
   * with its bearer, and this says which rotation of the session the bearer belongs to (reuse detection).
   */
  refreshId?: number | undefined;
}

export interface TokenService {
  signAccess(claims: AccessClaims): Promise<string>;
  /** Throws ERR_SESSION_EXPIRED (403) for an expired token, ERR_INVALID_TOKEN (401) for anything else wrong. */
  verifyAccess(token: string | undefined | null): Promise<AccessClaims>;
  /** The claims of a token we signed, expired or not (a bearer refresh); throws ERR_INVALID_TOKEN for anything else. */
  verifyRefreshable(token: string | undefined | null): Promise<AccessClaims>;
}

function claimsOf(payload: JWTPayload): AccessClaims {
  const userId = Number(payload.sub);
  const tenantId = Number(payload.tid);
  const profile = payload.profile as Profile;
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(tenantId) || !PROFILES.includes(profile)) {
    throw fail('ERR_INVALID_TOKEN');
  }
  const sessionId = typeof payload.sid === 'string' ? payload.sid : undefined;
  const refreshId = Number.isSafeInteger(payload.rid) ? (payload.rid as number) : undefined;
  return { userId, tenantId, profile, tokenVersion: Number(payload.ver ?? 0), sessionId, refreshId };
}

const unusable = (token: string | undefined | null): token is undefined | null | '' =>
  !token || token === 'null' || token === 'undefined';

export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async signAccess(claims) {
      const sid = claims.sessionId ? { sid: claims.sessionId } : {};
      const rid = claims.refreshId !== undefined ? { rid: claims.refreshId } : {};
      return new SignJWT({ tid: claims.tenantId, profile: claims.profile, ver: claims.tokenVersion, ...sid, ...rid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(key);
    },
    async verifyAccess(token) {
      if (unusable(token)) throw fail('ERR_INVALID_TOKEN');
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        return claimsOf(payload);
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw fail('ERR_SESSION_EXPIRED');
        throw fail('ERR_INVALID_TOKEN');
      }
    },
    async verifyRefreshable(token) {
      if (unusable(token)) throw fail('ERR_INVALID_TOKEN');
      try {
        return claimsOf((await jwtVerify(token, key, { algorithms: ['HS256'] })).payload);
      } catch (error) {
        // jose checks the signature before the claims: an expired token's payload is ours.
        if (error instanceof joseErrors.JWTExpired) return claimsOf(error.payload);
        throw fail('ERR_INVALID_TOKEN');
      }
    },
  };
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' ? value : undefined;
}

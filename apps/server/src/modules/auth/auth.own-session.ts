/**
 * The users module's port for one's own password change: the caller's session goes on (same session id, a new refresh
 * token under the new token version), every other session of the user ends.
 */
import type { Config } from '../../config.js';
import type { Tx } from '../../platform/db/client.js';
import { asTenantId } from '../../platform/db/tenancy.js';
import type { TokenService } from '../../platform/http/tokens.js';
import type { UserSessionsPort } from '../users/index.js';
import * as repo from './auth.repository.js';
import { refreshCookieWriter } from './auth.routes.js';
import { issueRefreshToken, signAccessToken } from './auth.sessions.js';

export function createUserSessions(deps: {
  tokens: TokenService;
  config: Pick<Config, 'publicUrl' | 'refreshTokenTtl' | 'corsOrigins'>;
}): UserSessionsPort {
  const { tokens, config } = deps;
  return {
    async renewOwnSession(tx: Tx, user, sessionId) {
      await repo.revokeUserRefreshTokens(tx, asTenantId(user.tenantId), user.id);
      const issued = await issueRefreshToken(tx, user, config.refreshTokenTtl, sessionId);
      const token = await signAccessToken(tokens, user, issued);
      return { token, refreshToken: issued.refreshToken, sessionId: issued.sessionId };
    },
    setRefreshCookie: refreshCookieWriter(config),
  };
}

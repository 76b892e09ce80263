import { queryOptions } from '@tanstack/react-query';
import { captchaChallengeSchema, type CaptchaChallenge } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /auth/captcha: a fresh, single-use slider challenge (or `enabled: false`). */
export async function fetchCaptcha(): Promise<CaptchaChallenge> {
  return captchaChallengeSchema.parse(await api.get('/auth/captcha', { public: true, background: true }));
}

export const captchaQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.captcha, queryFn: fetchCaptcha, staleTime: Infinity, gcTime: 0, retry: 1 });

import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CaptchaAnswer } from '@conversa/shared';
import { queryKeys } from '../../../lib/query-keys';
import { captchaQueryOptions } from '../api/captcha';
import type { CaptchaState } from '../components/CaptchaSlider';

/** The login's captcha: the challenge, the handle position and whether the user has answered. */
export function useCaptcha() {
  const queryClient = useQueryClient();
  const query = useQuery(captchaQueryOptions());
  const challenge = query.data;
  // Position and answer belong to one challenge token; a new token starts over.
  const [position, setPosition] = useState<{ token: string; x: number; answered: boolean } | null>(null);
  const current = challenge && position?.token === challenge.token ? position : null;
  const x = current?.x ?? 0;

  let state: CaptchaState;
  if (query.isFetching || (query.isPending && !query.isError)) state = 'loading';
  else if (query.isError || !challenge) state = 'error';
  else if (!challenge.enabled) state = 'disabled';
  else state = current?.answered ? 'answered' : 'ready';

  const answer: CaptchaAnswer | null =
    state === 'answered' && challenge ? { token: challenge.token, x: Math.round(x) } : null;

  return {
    challenge,
    state,
    x,
    answer,
    move: (next: number) => {
      if (!challenge) return;
      const { token } = challenge;
      setPosition((prev) => ({ token, x: next, answered: prev?.token === token && prev.answered }));
    },
    release: () => {
      if (!challenge) return;
      const { token } = challenge;
      setPosition((prev) => ({ token, x: prev?.token === token ? prev.x : 0, answered: true }));
    },
    refresh: () => {
      setPosition(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.captcha, exact: true });
    },
  };
}

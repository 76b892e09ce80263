import { useMutation } from '@tanstack/react-query';
import { loginResponseSchema, type CaptchaAnswer, type LoginResponse } from '@conversa/shared';
import { api } from '../../../lib/api';

export interface LoginVariables {
  email: string;
  password: string;
  captcha?: CaptchaAnswer;
}

/** POST /auth/login/: the e-mail is trimmed before sending (product-spec §5). */
export async function login({ email, password, captcha }: LoginVariables): Promise<LoginResponse> {
  const body = { email: email.trim(), password, ...(captcha ? { captcha } : {}) };
  return loginResponseSchema.parse(await api.post('/auth/login/', body, { public: true }));
}

export const useLogin = () => useMutation({ mutationFn: login, meta: { handlesErrors: true } });

import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  loginResponseSchema,
  plansResponseSchema,
  signupAcceptedSchema,
  type CaptchaAnswer,
  type LoginResponse,
  type SignupAccepted,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /plan/ (no token): `{ plan: PlanDto[] }`. */
export const plansQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.plans,
    queryFn: async () => plansResponseSchema.parse(await api.get('/plan/', { public: true })).plan,
  });

export const usePlans = () => useQuery(plansQueryOptions());

export interface SignupVariables {
  name: string;
  cpfCnpj: string;
  email: string;
  mobilePhone: string;
  password: string;
  planId: number;
  captcha?: CaptchaAnswer | undefined;
}

/** POST /signup: the same 202 for a new and a registered address; the confirmation link goes by e-mail. */
export async function signup(variables: SignupVariables): Promise<SignupAccepted> {
  const body = {
    ...variables,
    name: variables.name.trim(),
    email: variables.email.trim(),
    mobilePhone: variables.mobilePhone.replace(/\D/g, ''),
  };
  return signupAcceptedSchema.parse(await api.post('/signup', body, { public: true }));
}

export const useSignup = () => useMutation({ mutationFn: signup, meta: { handlesErrors: true } });

/** POST /signup/confirm: the e-mailed link creates the company and its admin, and answers like a login. */
export async function confirmSignup(token: string): Promise<LoginResponse> {
  return loginResponseSchema.parse(await api.post('/signup/confirm', { token }, { public: true }));
}

export const useConfirmSignup = () => useMutation({ mutationFn: confirmSignup, meta: { handlesErrors: true } });

import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { loginResponseSchema, plansResponseSchema, type LoginResponse } from '@conversa/shared';
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
}

/** POST /signup: creates the company and its admin, answers like a login. */
export async function signup(variables: SignupVariables): Promise<LoginResponse> {
  const body = {
    ...variables,
    name: variables.name.trim(),
    email: variables.email.trim(),
    mobilePhone: variables.mobilePhone.replace(/\D/g, ''),
  };
  return loginResponseSchema.parse(await api.post('/signup', body, { public: true }));
}

export const useSignup = () => useMutation({ mutationFn: signup, meta: { handlesErrors: true } });

import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** POST /password-reset { email }. */
export const requestPasswordReset = (email: string) =>
  api.post<void>('/password-reset', { email: email.trim() }, { public: true });

/** POST /reset-password { token, password }, the token from /reset/:token. */
export const resetPassword = (variables: { token: string; password: string }) =>
  api.post<void>('/reset-password', variables, { public: true });

export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: requestPasswordReset, meta: { handlesErrors: true } });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword, meta: { handlesErrors: true } });

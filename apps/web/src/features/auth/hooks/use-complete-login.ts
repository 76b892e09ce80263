import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { LoginResponse } from '@conversa/shared';
import { notifySuccess } from '../../../lib/notify';
import { useDarkMode } from '../../../lib/preferences';
import { queryKeys } from '../../../lib/query-keys';
import { landingPath } from '../../../lib/session';
import { storeLogin } from '../../../lib/storage';

/** After login or sign-up: store the keys, apply the user's dark mode, greet, land by profile. */
export function useCompleteLogin() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { apply } = useDarkMode();
  const { t } = useTranslation();
  return (login: LoginResponse, path = landingPath(login.profile)) => {
    // Nothing cached for a previous user survives; the login screen's own challenge stays (no needless re-fetch).
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.captcha[0] });
    storeLogin(login);
    if (typeof login.configs.isDark === 'boolean') apply(login.configs.isDark);
    notifySuccess(t('auth.loginSuccess'));
    navigate(path, { replace: true });
  };
}

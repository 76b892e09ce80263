/**
 * Dark mode, stored per user (product-spec §9): applied at once, then saved with PUT /users/{id}/configs. The header
 * toggle and the preferences screen share this hook.
 */
import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api } from './api';
import { getSession, getStoredLogin, updateStoredLogin } from './storage';

export function useDarkMode() {
  const { setColorScheme } = useMantineColorScheme();
  const isDark = useComputedColorScheme('light') === 'dark';
  const save = useMutation({
    mutationFn: async (dark: boolean) => {
      const session = getSession();
      if (!session) return;
      const configs = getStoredLogin()?.configs ?? {};
      await api.put(`/users/${session.userId}/configs`, { ...configs, isDark: dark }, { background: true });
      updateStoredLogin({ configs: { ...configs, isDark: dark } });
    },
  });
  const setDark = (dark: boolean) => {
    setColorScheme(dark ? 'dark' : 'light');
    save.mutate(dark);
  };
  return { isDark, setDark, apply: (dark: boolean) => setColorScheme(dark ? 'dark' : 'light') };
}

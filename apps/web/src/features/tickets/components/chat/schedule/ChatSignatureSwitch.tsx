/**
 * The composer's signature switch (client-contract §5.2): the user's own `configs.signature`, saved with
 * PUT /users/{id}/configs, off until turned on. When the tenant forces the signature (`signed`), it shows on and
 * cannot be turned off; when the tenant turns signatures off (`agentSignature`), it is not shown.
 */
import { useState } from 'react';
import { Switch, Tooltip } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { settingDtoSchema, signatureForced } from '@conversa/shared';
import { api, describeError } from '../../../../../lib/api';
import { notifyError } from '../../../../../lib/notify';
import { queryKeys } from '../../../../../lib/query-keys';
import { getSession, getStoredLogin, updateStoredLogin } from '../../../../../lib/storage';

export function ChatSignatureSwitch() {
  const { t } = useTranslation();
  const settings = useQuery({
    queryKey: queryKeys.settings,
    queryFn: async () => z.array(settingDtoSchema).parse(await api.get('/settings/', { background: true })),
    staleTime: 60_000,
  });
  const values = new Map((settings.data ?? []).map((s) => [s.key, s.value]));
  const forced = signatureForced({
    signed: values.get('signed'),
    userDisableSignature: values.get('userDisableSignature'),
  });
  // Off until the user turns it on (the server's rule, `signsMessages`).
  const [own, setOwn] = useState<boolean>(() => getStoredLogin()?.configs?.signature === true);
  const save = useMutation({
    mutationFn: async (signature: boolean) => {
      const session = getSession();
      if (!session) return;
      const configs = getStoredLogin()?.configs ?? {};
      await api.put(`/users/${session.userId}/configs`, { ...configs, signature }, { background: true });
      updateStoredLogin({ configs: { ...configs, signature } });
    },
    onError: (error, signature) => {
      setOwn(!signature);
      notifyError(describeError(error));
    },
  });
  // The tenant turned every agent's signature off: nothing to switch.
  if (values.get('agentSignature') === 'disabled') return null;
  const toggle = (
    <Switch
      size="xs"
      label={t('schedules.signature.label')}
      checked={forced || own}
      disabled={forced}
      onChange={(event) => {
        const next = event.currentTarget.checked;
        setOwn(next);
        save.mutate(next);
      }}
      data-testid="chat-signature"
    />
  );
  return forced ? <Tooltip label={t('schedules.signature.forced')}>{<span>{toggle}</span>}</Tooltip> : toggle;
}

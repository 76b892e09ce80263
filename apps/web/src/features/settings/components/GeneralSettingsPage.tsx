import { useState } from 'react';
import { Card, Divider, Skeleton, Stack, Switch, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  DISABLED,
  ENABLED,
  SETTING_DEFAULTS,
  SETTING_KEYS,
  TOGGLE_SETTING_KEYS,
  VISIBILITY_SETTING_KEYS,
  type SettingDto,
  type SettingKey,
} from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSettings, useUpdateSetting } from '../api/settings';
import { confirmAutoClose } from './AutoCloseConfirm';
import { AutoCloseTimeSetting } from './AutoCloseTimeSetting';
import { BotTicketActiveSetting } from './BotTicketActiveSetting';
import { MULTILINE_SETTING_KEYS, NUMERIC_SETTING_KEYS, SETTING_GROUPS } from './setting-groups';
import { TenantTogglesSection } from './TenantTogglesSection';

const TOGGLES: ReadonlySet<string> = new Set(TOGGLE_SETTING_KEYS);
const VISIBILITY: readonly string[] = VISIBILITY_SETTING_KEYS;

/**
 * product-spec §5: the three visibility switches may not all be on. With two on, the third is disabled and says
 * why (the server refuses the combination too, ERR_SETTINGS_VISIBILITY_COMBINATION).
 */
function visibilityLocked(key: string, values: ReadonlyMap<string, string>): boolean {
  if (!VISIBILITY.includes(key) || values.get(key) === ENABLED) return false;
  return VISIBILITY.filter((other) => other !== key && values.get(other) === ENABLED).length === VISIBILITY.length - 1;
}

export function GeneralSettingsPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const update = useUpdateSetting();

  if (settings.isPending) {
    return (
      <Stack aria-busy="true" aria-label={t('common.loading')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={140} radius="md" />
        ))}
      </Stack>
    );
  }
  if (settings.isError) return <QueryError error={settings.error} onRetry={() => void settings.refetch()} />;

  const values = new Map<string, string>(SETTING_KEYS.map((key) => [key, SETTING_DEFAULTS[key]]));
  for (const { key, value } of settings.data) values.set(key, value);

  const store = (setting: SettingDto) =>
    update.mutate(setting, {
      onSuccess: () => notifySuccess(t('settings.saved')),
      onError: (error) => notifyError(describeError(error)),
    });
  // Switching auto-close on, or changing its time while on, says what it would close and asks first.
  const save = (setting: SettingDto) => {
    const on = values.get('autoClose') === ENABLED;
    if (setting.key === 'autoClose' && setting.value === ENABLED && !on) {
      void confirmAutoClose(t, values.get('autoCloseTime') ?? SETTING_DEFAULTS.autoCloseTime, () => store(setting));
    } else if (setting.key === 'autoCloseTime' && on) {
      void confirmAutoClose(t, setting.value, () => store(setting));
    } else {
      store(setting);
    }
  };

  return (
    <Stack gap="lg">
      {SETTING_GROUPS.map((group) => (
        <Card
          key={group.id}
          withBorder
          radius="md"
          padding="lg"
          component="section"
          aria-labelledby={`settings-${group.id}`}
        >
          <Title order={2} size="h4" id={`settings-${group.id}`}>
            {t(`settings.groups.${group.id}`)}
          </Title>
          <Stack gap={0} mt="sm">
            {group.keys.map((key, index) => (
              <div key={key}>
                {index > 0 ? <Divider my="sm" /> : null}
                {TOGGLES.has(key) ? (
                  <ToggleSetting
                    settingKey={key}
                    value={values.get(key) ?? DISABLED}
                    onSave={save}
                    locked={visibilityLocked(key, values)}
                  />
                ) : key === 'autoCloseTime' ? (
                  <AutoCloseTimeSetting value={values.get(key) ?? ''} onSave={save} />
                ) : key === 'botTicketActive' ? (
                  <BotTicketActiveSetting value={values.get(key) ?? ''} onSave={save} />
                ) : (
                  <TextSetting settingKey={key} value={values.get(key) ?? ''} onSave={save} />
                )}
              </div>
            ))}
          </Stack>
        </Card>
      ))}
      <TenantTogglesSection />
    </Stack>
  );
}

function ToggleSetting({
  settingKey,
  value,
  onSave,
  locked = false,
}: {
  settingKey: SettingKey;
  value: string;
  onSave: (setting: SettingDto) => void;
  /** Cannot go on now (the visibility combination): disabled, and the description says why. */
  locked?: boolean;
}) {
  const { t } = useTranslation();
  const description = t(`settings.keys.${settingKey}.description`);
  return (
    <Switch
      label={t(`settings.keys.${settingKey}.label`)}
      description={locked ? `${description} ${t('settings.visibilityExclusive')}` : description}
      disabled={locked}
      checked={value === ENABLED}
      onChange={(event) => onSave({ key: settingKey, value: event.currentTarget.checked ? ENABLED : DISABLED })}
      labelPosition="left"
      size="md"
      data-testid={`setting-${settingKey}`}
      styles={{ body: { justifyContent: 'space-between' }, labelWrapper: { flex: 1 } }}
    />
  );
}

function TextSetting({
  settingKey,
  value,
  onSave,
}: {
  settingKey: SettingKey;
  value: string;
  onSave: (setting: SettingDto) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<{ base: string; text: string }>({ base: value, text: value });
  // A new server value (save, socket event) replaces an untouched draft.
  const text = draft.base === value ? draft.text : value;
  const numeric = NUMERIC_SETTING_KEYS.has(settingKey);
  const invalid = numeric && text !== '' && !/^\d+$/.test(text);
  const commit = () => {
    if (invalid || text === value) return;
    onSave({ key: settingKey, value: text.trim() });
  };
  const common = {
    label: t(`settings.keys.${settingKey}.label`),
    description: t(`settings.keys.${settingKey}.description`),
    value: text,
    error: invalid ? t('validation.number') : undefined,
    onBlur: commit,
    'data-testid': `setting-${settingKey}`,
  };
  return (
    <>
      {MULTILINE_SETTING_KEYS.has(settingKey) ? (
        <Textarea
          {...common}
          autosize
          minRows={2}
          maxRows={6}
          onChange={(event) => setDraft({ base: value, text: event.currentTarget.value })}
        />
      ) : (
        <TextInput
          {...common}
          inputMode={numeric ? 'numeric' : undefined}
          type={settingKey === 'webhookUrl' ? 'url' : 'text'}
          onChange={(event) => setDraft({ base: value, text: event.currentTarget.value })}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
      )}
    </>
  );
}

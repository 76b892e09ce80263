/** The inactivity time of auto-close (product-spec §9): 10 minutes, 1 hour, 1 day, 5 days or 10 days. */
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AUTO_CLOSE_TIMES, type SettingDto } from '@conversa/shared';

export function AutoCloseTimeSetting({ value, onSave }: { value: string; onSave: (setting: SettingDto) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('settings.keys.autoCloseTime.label')}
      description={t('settings.keys.autoCloseTime.description')}
      data={AUTO_CLOSE_TIMES.map((minutes) => ({ value: minutes, label: t(`schedules.autoCloseTimes.${minutes}`) }))}
      value={(AUTO_CLOSE_TIMES as readonly string[]).includes(value) ? value : null}
      placeholder={t('schedules.autoCloseTimes.pick')}
      allowDeselect={false}
      onChange={(minutes) => {
        if (minutes && minutes !== value) onSave({ key: 'autoCloseTime', value: minutes });
      }}
      data-testid="setting-autoCloseTime"
    />
  );
}

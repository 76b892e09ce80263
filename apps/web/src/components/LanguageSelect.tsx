import { Select, type SelectProps } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '@conversa/shared';
import { changeLanguage, currentLocale, isLocale, LANGUAGE_LABELS } from '../lib/i18n';

const options = LOCALES.map((code) => ({ value: code, label: LANGUAGE_LABELS[code] }));

/** The 11 locales; the choice is stored under `language`. */
export function LanguageSelect(props: Omit<SelectProps, 'data' | 'value' | 'onChange'>) {
  const { t, i18n } = useTranslation();
  const value = i18n.resolvedLanguage && isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLocale();
  return (
    <Select
      aria-label={t('shell.language')}
      data={options}
      value={value}
      allowDeselect={false}
      checkIconPosition="right"
      leftSection={<IconLanguage size={16} aria-hidden />}
      comboboxProps={{ withinPortal: true }}
      onChange={(next) => {
        if (isLocale(next)) void changeLanguage(next);
      }}
      {...props}
    />
  );
}

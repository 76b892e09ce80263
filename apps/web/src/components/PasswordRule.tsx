import { List, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SIGNUP_PASSWORD_MIN } from '@conversa/shared';

/** product-spec §5: at least 7 characters with letters, numbers and a special character. */
export function passwordChecks(value: string) {
  return {
    length: value.length >= SIGNUP_PASSWORD_MIN,
    letter: /[A-Za-z]/.test(value),
    number: /\d/.test(value),
    special: /[^A-Za-z0-9]/.test(value),
  };
}

export const isStrongPassword = (value: string): boolean => Object.values(passwordChecks(value)).every(Boolean);

/** The rule, shown next to the field, each part ticked as it is met. */
export function PasswordRule({ value, id }: { value: string; id?: string }) {
  const { t } = useTranslation();
  const checks = passwordChecks(value);
  const items: [keyof typeof checks, string][] = [
    ['length', t('password.ruleLength', { min: SIGNUP_PASSWORD_MIN })],
    ['letter', t('password.ruleLetter')],
    ['number', t('password.ruleNumber')],
    ['special', t('password.ruleSpecial')],
  ];
  return (
    <div id={id}>
      <Text size="xs" c="dimmed" mb={4}>
        {t('password.rule', { min: SIGNUP_PASSWORD_MIN })}
      </Text>
      <List spacing={2} size="xs" center>
        {items.map(([key, label]) => (
          <List.Item
            key={key}
            icon={
              <ThemeIcon color={checks[key] ? 'teal' : 'gray'} size={16} radius="xl" variant="light">
                {checks[key] ? <IconCheck size={12} aria-hidden /> : <IconCircleDashed size={12} aria-hidden />}
              </ThemeIcon>
            }
          >
            <Text size="xs" c={checks[key] ? 'teal' : 'dimmed'}>
              {label}
              <span className="visually-hidden">{checks[key] ? ` (${t('password.met')})` : ''}</span>
            </Text>
          </List.Item>
        ))}
      </List>
    </div>
  );
}

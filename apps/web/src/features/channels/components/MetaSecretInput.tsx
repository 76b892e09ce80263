/** A write-only credential of a Meta channel: empty keeps the stored one, and the field says when one is stored. */
import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ChannelFormValues } from '../hooks/channel-form';

interface MetaSecretInputProps {
  form: UseFormReturnType<ChannelFormValues>;
  field: 'tokenAPI' | 'bmToken' | 'metaAppSecret';
  /** The server holds a value for this field. */
  kept: boolean;
  label: string;
  hint: string;
  testId: string;
  required?: boolean;
}

export function MetaSecretInput({ form, field, kept, label, hint, testId, required }: MetaSecretInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      label={label}
      description={kept ? t('channels.form.secretKept') : hint}
      placeholder={kept ? t('channels.form.secretKeptPlaceholder') : undefined}
      required={required && !kept}
      autoComplete="new-password"
      maxLength={field === 'bmToken' ? 1000 : 500}
      data-testid={testId}
      {...form.getInputProps(field)}
    />
  );
}

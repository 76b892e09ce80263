/**
 * Name, e-mail and password of a user, shared by the tenant's user form and the superadmin's form across companies.
 * The password follows the product's one rule (product-spec §5, `strongPasswordSchema` on the server).
 */
import { useId } from 'react';
import { PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { isStrongPassword, PasswordRule } from '../../../components/PasswordRule';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface IdentityValues {
  name: string;
  email: string;
  password: string;
}

/** The form rules of the three fields; editing, an empty password keeps the current one. */
export function identityRules(t: TFunction, editing: boolean) {
  return {
    name: (v: string) => (v.trim() ? null : t('validation.required', { attribute: t('fields.name') })),
    email: (v: string) =>
      !v.trim()
        ? t('validation.required', { attribute: t('fields.email') })
        : EMAIL.test(v.trim())
          ? null
          : t('validation.invalid', { attribute: t('fields.email') }),
    password: (v: string) => {
      if (!v) return editing ? null : t('validation.required', { attribute: t('fields.password') });
      return isStrongPassword(v) ? null : t('validation.passwordRule');
    },
  };
}

export function UserIdentityFields({
  inputProps,
  password,
  editing,
}: {
  inputProps: (field: keyof IdentityValues) => GetInputPropsReturnType;
  password: string;
  editing: boolean;
}) {
  const { t } = useTranslation();
  const ruleId = useId();
  return (
    <>
      <TextInput
        label={t('fields.name')}
        required
        data-autofocus
        autoComplete="off"
        data-testid="user-form-name"
        {...inputProps('name')}
      />
      <TextInput
        label={t('fields.email')}
        type="email"
        required
        autoComplete="off"
        data-testid="user-form-email"
        {...inputProps('email')}
      />
      <Stack gap={4}>
        <PasswordInput
          label={t('fields.password')}
          required={!editing}
          autoComplete="new-password"
          aria-describedby={ruleId}
          data-testid="user-form-password"
          {...inputProps('password')}
        />
        <div id={ruleId}>
          {editing ? (
            <Text size="xs" c="dimmed" mb={4}>
              {t('users.passwordKeep')}
            </Text>
          ) : null}
          {!editing || password ? <PasswordRule value={password} /> : null}
        </div>
      </Stack>
    </>
  );
}

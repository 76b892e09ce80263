/**
 * Pieces of the official-channel settings pages (/configuracoes/meta and /configuracoes/hub): the section card
 * with the tenant read's loading and error states, and a write-only token field with its stored state and "remove".
 */
import type { ReactNode } from 'react';
import { Button, Group, PasswordInput, Stack, type PasswordInputProps } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../../components/confirmDelete';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useTenantTokens, type TenantTokens } from '../api/official-channels';

/** The page's card: title, description, then the form once the tenant's token flags are loaded. */
export function TokensCard({
  section,
  children,
}: {
  section: 'meta' | 'hub';
  children: (tokens: TenantTokens) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <SettingsSectionCard
      id={`settings-${section}`}
      title={t(`settings.${section}.title`)}
      description={t(`settings.${section}.description`)}
      query={useTenantTokens()}
      loadingTestId={`settings-${section}-loading`}
    >
      {children}
    </SettingsSectionCard>
  );
}

interface TokenInputProps extends Omit<PasswordInputProps, 'description' | 'placeholder'> {
  /** The server holds a token. */
  configured: boolean;
  /** What the token is for. */
  hint: string;
  testId: string;
  removing: boolean;
  onRemove: () => void;
}

/** Write-only: never shows the stored token; empty keeps it; "remove" (after a confirmation) clears it. */
export function TokenInput({ configured, hint, testId, removing, onRemove, label, ...props }: TokenInputProps) {
  const { t } = useTranslation();
  const ask = () =>
    confirmDelete({
      title: t('settings.tokens.removeTitle'),
      message: t('settings.tokens.removeConfirm', { name: String(label) }),
      confirmLabel: t('settings.tokens.remove'),
      onConfirm: onRemove,
    });
  return (
    <Stack gap={4}>
      <PasswordInput
        label={label}
        description={`${hint} ${configured ? t('settings.tokens.configured') : t('settings.tokens.notConfigured')}`}
        placeholder={configured ? '••••••••' : undefined}
        autoComplete="new-password"
        maxLength={2000}
        data-testid={testId}
        {...props}
      />
      {configured ? (
        <Group justify="flex-end">
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={removing}
            onClick={ask}
            aria-label={t('settings.tokens.removeNamed', { name: String(label) })}
            data-testid={`${testId}-remove`}
          >
            {t('settings.tokens.remove')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/**
 * Pieces of the official-channel settings pages (/configuracoes/meta and /configuracoes/hub): the section card
 * with the tenant read's loading and error states, and a write-only token field with its stored state and "remove".
 */
import type { ReactNode } from 'react';
import {
  Button,
  Card,
  Group,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  Title,
  type PasswordInputProps,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../../components/confirmDelete';
import { QueryError } from '../../../components/QueryError';
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
  const tokens = useTenantTokens();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={`settings-${section}`}>
      <Title order={2} size="h4" id={`settings-${section}`}>
        {t(`settings.${section}.title`)}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {t(`settings.${section}.description`)}
      </Text>
      {tokens.isPending ? (
        <Stack aria-busy="true" aria-label={t('common.loading')} data-testid={`settings-${section}-loading`}>
          <Skeleton height={60} />
          <Skeleton height={36} width={120} />
        </Stack>
      ) : tokens.isError || !tokens.data ? (
        <QueryError error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : (
        children(tokens.data)
      )}
    </Card>
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

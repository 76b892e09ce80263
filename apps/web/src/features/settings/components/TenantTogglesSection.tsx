import { useState } from 'react';
import { Card, Divider, NumberInput, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isTenantLimitKey, type TenantFlagKey, type TenantLimitKey } from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useTenantFlags, useUpdateTenantFlag } from '../api/tenant-flags';
import { TENANT_FLAG_GROUPS } from './tenant-flag-groups';

/** The company's toggles (client-contract §10) under the general settings: one card per group, saved on change. */
export function TenantTogglesSection() {
  const { t } = useTranslation();
  const tenant = useTenantFlags();
  const update = useUpdateTenantFlag();

  if (tenant.isPending) return <Skeleton height={140} radius="md" aria-label={t('common.loading')} />;
  if (tenant.isError) return <QueryError error={tenant.error} onRetry={() => void tenant.refetch()} />;
  const { id, flags } = tenant.data;

  const save = (field: TenantFlagKey, value: string | number) =>
    update.mutate(
      { id, field, value },
      {
        onSuccess: () => notifySuccess(t('settings.saved')),
        onError: (error) => notifyError(describeError(error)),
      },
    );

  return (
    <>
      {TENANT_FLAG_GROUPS.map((group) => (
        <Card
          key={group.id}
          withBorder
          radius="md"
          padding="lg"
          component="section"
          aria-labelledby={`tenant-flags-${group.id}`}
          data-testid={`tenant-flags-${group.id}`}
        >
          <Title order={2} size="h4" id={`tenant-flags-${group.id}`}>
            {t(`tenantFlags.groups.${group.id}`)}
          </Title>
          <Text size="sm" c="dimmed">
            {t('tenantFlags.companyWide')}
          </Text>
          <Stack gap={0} mt="sm">
            {group.keys.map((key, index) => (
              <div key={key}>
                {index > 0 ? <Divider my="sm" /> : null}
                {isTenantLimitKey(key) ? (
                  <LimitFlag field={key} value={flags[key]} onSave={(value) => save(key, value)} />
                ) : (
                  <Switch
                    label={t(`tenantFlags.keys.${key}.label`)}
                    description={t(`tenantFlags.keys.${key}.description`)}
                    checked={flags[key] === 'enabled'}
                    onChange={(event) => save(key, event.currentTarget.checked ? 'enabled' : 'disabled')}
                    labelPosition="left"
                    size="md"
                    data-testid={`tenant-flag-${key}`}
                    styles={{ body: { justifyContent: 'space-between' }, labelWrapper: { flex: 1 } }}
                  />
                )}
              </div>
            ))}
          </Stack>
        </Card>
      ))}
    </>
  );
}

function LimitFlag({ field, value, onSave }: { field: TenantLimitKey; value: number; onSave: (n: number) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<{ base: number; text: string | number }>({ base: value, text: value });
  const text = draft.base === value ? draft.text : value;
  const number = typeof text === 'number' ? text : Number.NaN;
  const invalid = !Number.isInteger(number) || number < 1 || number > 1000;
  const commit = () => {
    if (invalid || number === value) return;
    onSave(number);
  };
  return (
    <NumberInput
      label={t(`tenantFlags.keys.${field}.label`)}
      description={t(`tenantFlags.keys.${field}.description`)}
      value={text}
      min={1}
      max={1000}
      allowDecimal={false}
      clampBehavior="none"
      allowNegative={false}
      error={invalid ? t('tenantFlags.limitRange', { min: 1, max: 1000 }) : undefined}
      onChange={(next) => setDraft({ base: value, text: next })}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      data-testid={`tenant-flag-${field}`}
    />
  );
}

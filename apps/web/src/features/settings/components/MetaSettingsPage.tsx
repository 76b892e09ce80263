/**
 * /configuracoes/meta (admin): the tenant's Meta business token and default WhatsApp Cloud API token, write-only
 * (PUT /tenantsMetaUpdate/{tenantId}), and the business accounts that token reaches (POST /wabametaVerifyBms).
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconBuildingStore, IconDeviceFloppy, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useSaveMetaTokens,
  useVerifyBusinessAccounts,
  type BusinessAccount,
  type MetaTokensInput,
  type TenantTokens,
} from '../api/official-channels';
import { TokenInput, TokensCard } from './TokenSettingsParts';

export function MetaSettingsPage() {
  return (
    <Stack gap="lg">
      <TokensCard section="meta">{(tokens) => <MetaTokensForm tokens={tokens} />}</TokensCard>
      <BusinessAccounts />
    </Stack>
  );
}

function MetaTokensForm({ tokens }: { tokens: TenantTokens }) {
  const { t } = useTranslation();
  const save = useSaveMetaTokens();
  const form = useForm({
    initialValues: { metaToken: '', wabaToken: '' },
    validate: (values) =>
      values.metaToken.trim() || values.wabaToken.trim() ? {} : { metaToken: t('settings.tokens.nothingToSave') },
  });
  const send = (input: Omit<MetaTokensInput, 'tenantId'>, done: string) =>
    save.mutate(
      { tenantId: tokens.tenantId, ...input },
      {
        onSuccess: () => {
          // A saved token leaves its field (it is write-only); a removal keeps what is being typed.
          if (input.metaToken) form.setFieldValue('metaToken', '');
          if (input.wabaToken) form.setFieldValue('wabaToken', '');
          notifySuccess(done);
        },
        onError: (error) => notifyError(describeError(error), t('settings.gateways.saveError')),
      },
    );
  // Only typed tokens are sent: an empty field keeps the stored one.
  const submit = form.onSubmit(({ metaToken, wabaToken }) =>
    send(
      {
        ...(metaToken.trim() ? { metaToken: metaToken.trim() } : {}),
        ...(wabaToken.trim() ? { wabaToken: wabaToken.trim() } : {}),
      },
      t('settings.gateways.saved'),
    ),
  );
  const pending = save.isPending ? save.variables : undefined;
  const removingMeta = pending?.metaToken === null;
  const removingWaba = pending?.wabaToken === null;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <TokenInput
            label={t('settings.meta.metaToken')}
            hint={t('settings.meta.metaTokenHint')}
            configured={tokens.metaToken}
            testId="settings-meta-token"
            removing={removingMeta}
            onRemove={() => send({ metaToken: null }, t('settings.tokens.removed'))}
            {...form.getInputProps('metaToken')}
          />
          <TokenInput
            label={t('settings.meta.wabaToken')}
            hint={t('settings.meta.wabaTokenHint')}
            configured={tokens.wabaToken}
            testId="settings-waba-token"
            removing={removingWaba}
            onRemove={() => send({ wabaToken: null }, t('settings.tokens.removed'))}
            {...form.getInputProps('wabaToken')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={pending !== undefined && !removingMeta && !removingWaba}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            data-testid="settings-meta-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The business accounts and phone numbers the stored Meta token reaches, read on demand. */
function BusinessAccounts() {
  const { t } = useTranslation();
  const verify = useVerifyBusinessAccounts();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="settings-meta-bms">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={2} size="h4" id="settings-meta-bms">
            {t('settings.meta.bms.title')}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('settings.meta.bms.description')}
          </Text>
        </div>
        <Button
          variant="light"
          leftSection={<IconSearch size={16} aria-hidden />}
          loading={verify.isPending}
          onClick={() => verify.mutate()}
          data-testid="settings-meta-verify-bms"
        >
          {t('settings.meta.bms.verify')}
        </Button>
      </Group>
      <div aria-live="polite">
        {verify.isError ? (
          <Alert
            mt="md"
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            role="alert"
            data-testid="settings-meta-bms-error"
          >
            {describeError(verify.error)}
          </Alert>
        ) : verify.data ? (
          <AccountsList accounts={verify.data} />
        ) : null}
      </div>
    </Card>
  );
}

function AccountsList({ accounts }: { accounts: BusinessAccount[] }) {
  const { t } = useTranslation();
  if (!accounts.length) {
    return (
      <Stack align="center" gap="xs" mt="md" data-testid="settings-meta-bms-empty">
        <ThemeIcon size={44} radius="xl" variant="light">
          <IconBuildingStore size={24} aria-hidden />
        </ThemeIcon>
        <Text fw={600}>{t('settings.meta.bms.emptyTitle')}</Text>
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {t('settings.meta.bms.empty')}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="md" mt="md" data-testid="settings-meta-bms-list">
      {accounts.map((account) => (
        <section key={account.id} aria-labelledby={`bm-${account.id}`} data-testid={`settings-meta-bm-${account.id}`}>
          <Divider mb="sm" />
          <Group gap="xs" mb="xs">
            <Title order={3} size="h5" id={`bm-${account.id}`}>
              {account.name}
            </Title>
            <Badge variant="light" color="gray" tt="none">
              {t('settings.meta.bms.accountId', { id: account.id })}
            </Badge>
          </Group>
          {account.phoneNumbers.length ? (
            <Table.ScrollContainer minWidth={420}>
              <Table striped withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('settings.meta.bms.number')}</Table.Th>
                    <Table.Th scope="col">{t('settings.meta.bms.verifiedName')}</Table.Th>
                    <Table.Th scope="col">{t('settings.meta.bms.phoneId')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {account.phoneNumbers.map((phone) => (
                    <Table.Tr key={phone.id}>
                      <Table.Td dir="ltr">{phone.displayPhoneNumber}</Table.Td>
                      <Table.Td>{phone.verifiedName ?? '—'}</Table.Td>
                      <Table.Td dir="ltr">{phone.id}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <Text size="sm" c="dimmed">
              {t('settings.meta.bms.noNumbers')}
            </Text>
          )}
        </section>
      ))}
    </Stack>
  );
}

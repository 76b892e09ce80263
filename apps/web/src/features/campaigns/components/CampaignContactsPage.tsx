/**
 * /campanhas/:campanhaId (product-spec §2 "the contacts of a campaign"): the campaign's header (name, status,
 * progress), its recipients with their delivery state, and adding (contacts picked by search, or every contact of
 * some tags) and removing them, only while the campaign is pending or canceled (product-spec §5).
 */
import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  MultiSelect,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft, IconChartBar, IconInfoCircle, IconTrash, IconUsers } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { CampaignRecipientDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { NotFound } from '../../../components/NotFound';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { TagBadges, TagMultiSelect } from '../../../components/TagMultiSelect';
import { describeError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useAddCampaignContacts,
  useAddCampaignTags,
  useCampaign,
  useCampaignRecipients,
  useCampaignsLive,
  useContactSearch,
  useRemoveAllCampaignContacts,
  useRemoveCampaignContact,
} from '../api/campaigns';
import { isEditable } from '../campaign-rules';
import { CampaignProgress, CampaignStatusBadge, DELIVERY_COLORS } from './CampaignStatus';

export function CampaignContactsPage() {
  const { campanhaId } = useParams();
  const id = Number(campanhaId);
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return <CampaignContacts key={id} id={id} />;
}

function CampaignContacts({ id }: { id: number }) {
  const { t } = useTranslation();
  useCampaignsLive();
  const campaign = useCampaign(id);
  const recipients = useCampaignRecipients(id);
  const removeOne = useRemoveCampaignContact(id);
  const removeAll = useRemoveAllCampaignContacts(id);
  const failed = (error: unknown) => notifyError(describeError(error));
  const editable = campaign.data ? isEditable(campaign.data) : false;
  const rows = recipients.data ?? [];

  if (campaign.isError && !campaign.data) {
    return (
      <>
        <BackLink />
        <QueryError error={campaign.error} onRetry={() => void campaign.refetch()} />
      </>
    );
  }

  const askRemove = (row: CampaignRecipientDto) =>
    confirmDelete({
      title: t('campaigns.contacts.removeTitle'),
      message: t('campaigns.contacts.removeConfirm', { name: row.name }),
      confirmLabel: t('campaigns.contacts.remove'),
      onConfirm: () =>
        removeOne.mutate(row.id, { onSuccess: () => notifySuccess(t('campaigns.contacts.removed')), onError: failed }),
    });
  const askRemoveAll = () =>
    confirmDelete({
      title: t('campaigns.contacts.removeAllTitle'),
      message: t('campaigns.contacts.removeAllConfirm', { count: rows.length }),
      confirmLabel: t('campaigns.contacts.removeAll'),
      onConfirm: () =>
        removeAll.mutate(undefined, {
          onSuccess: () => notifySuccess(t('campaigns.contacts.removedAll')),
          onError: failed,
        }),
    });

  return (
    <>
      <BackLink />
      <PageTitle
        title={campaign.data ? t('campaigns.contacts.title', { name: campaign.data.name }) : t('common.loading')}
        description={t('campaigns.contacts.subtitle')}
        actions={
          <>
            <Button
              component={Link}
              to={`/campanhas/${id}/relatorio`}
              variant="default"
              leftSection={<IconChartBar size={16} aria-hidden />}
              data-testid="campaign-report-link"
            >
              {t('campaigns.report.action')}
            </Button>
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              disabled={!editable || rows.length === 0}
              onClick={askRemoveAll}
              data-testid="campaign-remove-all"
            >
              {t('campaigns.contacts.removeAll')}
            </Button>
          </>
        }
      />
      {campaign.data ? (
        <Paper withBorder p="sm" radius="md" mb="md" data-testid="campaign-header">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Group gap="sm">
              <CampaignStatusBadge campaign={campaign.data} />
              <Text size="sm">{t('campaigns.contacts.total', { count: campaign.data.contactsCount })}</Text>
            </Group>
            <div style={{ minWidth: 220, flex: '0 1 320px' }}>
              <CampaignProgress campaign={campaign.data} />
            </div>
          </Group>
        </Paper>
      ) : null}
      {campaign.data && !editable ? (
        <Alert
          color="blue"
          variant="light"
          icon={<IconInfoCircle size={18} aria-hidden />}
          mb="md"
          data-testid="campaign-locked"
        >
          {t('campaigns.contacts.locked')}
        </Alert>
      ) : null}
      {campaign.data ? <AddRecipients id={id} disabled={!editable} /> : null}
      {recipients.isError && !recipients.data ? (
        <QueryError error={recipients.error} onRetry={() => void recipients.refetch()} />
      ) : (
        <DataTable<CampaignRecipientDto>
          data-testid="campaign-recipients-table"
          aria-label={t('campaigns.contacts.tableLabel')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={rows.length ? undefined : 220}
          fetching={recipients.isFetching}
          noRecordsText={t('campaigns.contacts.empty')}
          noRecordsIcon={<IconUsers size={32} aria-hidden />}
          records={rows}
          customRowAttributes={(row) => ({ 'data-testid': `recipient-row-${row.id}` })}
          columns={[
            { accessor: 'name', title: t('campaigns.contacts.name') },
            { accessor: 'number', title: t('campaigns.contacts.number'), render: (row) => row.number ?? '' },
            { accessor: 'tags', title: t('campaigns.contacts.tags'), render: (row) => <TagBadges tags={row.tags} /> },
            {
              accessor: 'state',
              title: t('campaigns.contacts.state'),
              render: (row) => {
                const state = row.campaignContacts[0]?.state ?? 'pending';
                return (
                  <Badge variant="light" color={DELIVERY_COLORS[state]} data-testid={`recipient-state-${row.id}`}>
                    {t(`campaigns.delivery.${state}`)}
                  </Badge>
                );
              },
            },
            {
              accessor: 'reason',
              title: t('campaigns.contacts.reason'),
              render: (row) => {
                const reason = row.campaignContacts[0]?.reason;
                return reason ? (
                  <Text size="sm" c="red" data-testid={`recipient-reason-${row.id}`}>
                    {errorText(reason)}
                  </Text>
                ) : null;
              },
            },
            {
              accessor: 'sentAt',
              title: t('campaigns.contacts.sentAt'),
              render: (row) => formatDateTime(row.campaignContacts[0]?.sentAt),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 70,
              render: (row) => (
                <Tooltip label={editable ? t('campaigns.contacts.remove') : t('campaigns.contacts.locked')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('campaigns.contacts.removeItem', { name: row.name })}
                    disabled={!editable}
                    onClick={() => askRemove(row)}
                    data-testid={`recipient-remove-${row.id}`}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              ),
            },
          ]}
        />
      )}
    </>
  );
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/campanhas" size="sm" mb="sm" display="inline-flex" data-testid="campaign-back">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} aria-hidden />
        {t('campaigns.contacts.back')}
      </Group>
    </Anchor>
  );
}

/** The two ways to add recipients: contacts picked by search, and every contact of some tags. */
function AddRecipients({ id, disabled }: { id: number; disabled: boolean }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [picked, setPicked] = useState<{ value: string; label: string }[]>([]);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const contacts = useContactSearch(debounced, !disabled);
  const addContacts = useAddCampaignContacts(id);
  const addTags = useAddCampaignTags(id);
  const failed = (error: unknown) => notifyError(describeError(error));

  // The picked contacts stay in the options while the search shows others.
  const options = new Map(picked.map((option) => [option.value, option]));
  for (const contact of contacts.data ?? []) {
    const value = String(contact.id);
    if (!options.has(value)) {
      const label = contact.number ? `${contact.name} (${contact.number})` : contact.name;
      options.set(value, { value, label });
    }
  }

  const submitContacts = () =>
    addContacts.mutate(
      picked.map((option) => Number(option.value)),
      {
        onSuccess: ({ added }) => {
          notifySuccess(t('campaigns.contacts.added', { count: added }));
          setPicked([]);
        },
        onError: failed,
      },
    );
  const submitTags = () =>
    addTags.mutate(tagIds, {
      onSuccess: ({ added }) => {
        notifySuccess(t('campaigns.contacts.added', { count: added }));
        setTagIds([]);
      },
      onError: failed,
    });

  return (
    <Paper withBorder p="sm" radius="md" mb="md">
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap" gap="sm">
          <MultiSelect
            flex={1}
            miw={260}
            label={t('campaigns.contacts.addContacts')}
            placeholder={t('campaigns.contacts.searchPlaceholder')}
            searchable
            clearable
            disabled={disabled}
            data={[...options.values()]}
            value={picked.map((option) => option.value)}
            onChange={(values) => setPicked(values.map((value) => options.get(value)!).filter(Boolean))}
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: all }) => all}
            hidePickedOptions={false}
            nothingFoundMessage={contacts.isFetching ? t('common.loading') : t('campaigns.contacts.noContacts')}
            data-testid="campaign-add-contacts"
          />
          <Button
            disabled={disabled || picked.length === 0}
            loading={addContacts.isPending}
            onClick={submitContacts}
            data-testid="campaign-add-contacts-submit"
          >
            {t('campaigns.contacts.add')}
          </Button>
        </Group>
        <Group align="flex-end" wrap="wrap" gap="sm">
          <div style={{ flex: 1, minWidth: 260 }}>
            <TagMultiSelect
              label={t('campaigns.contacts.addTags')}
              description={t('campaigns.contacts.addTagsHint')}
              disabled={disabled}
              value={tagIds}
              onChange={setTagIds}
              data-testid="campaign-add-tags"
            />
          </div>
          <Button
            disabled={disabled || tagIds.length === 0}
            loading={addTags.isPending}
            onClick={submitTags}
            data-testid="campaign-add-tags-submit"
          >
            {t('campaigns.contacts.addByTags')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

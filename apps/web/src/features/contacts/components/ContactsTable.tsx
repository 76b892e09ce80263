import { ActionIcon, Avatar, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconAddressBook,
  IconLock,
  IconLockOpen,
  IconPencil,
  IconRobot,
  IconRobotOff,
  IconTrash,
} from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '@conversa/shared';
import type { ContactFlag } from '../api/contacts';
import { formatContactNumber } from '../../../lib/contact-form';
import { contactInitials } from '../hooks/contact-format';

interface ContactsTableProps {
  records: ContactDto[];
  totalRecords: number;
  /** The total as shown (`10.000+` when the server stopped counting). */
  totalText: string;
  pageSize: number;
  page: number;
  onPageChange: (page: number) => void;
  fetching: boolean;
  emptyText: string;
  canDelete: boolean;
  onEdit: (contact: ContactDto) => void;
  onDelete: (contact: ContactDto) => void;
  onToggle: (contact: ContactDto, flag: ContactFlag) => void;
}

/** Mantine badges clip their text (overflow hidden), so a table column would squeeze them to an ellipsis. */
const WHOLE_TEXT = { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } } as const;

const wide = (theme: { breakpoints: { md: string } }) => `(min-width: ${theme.breakpoints.md})`;

export function ContactsTable(props: ContactsTableProps) {
  const { t } = useTranslation();
  const columns: DataTableColumn<ContactDto>[] = [
    {
      accessor: 'name',
      title: t('fields.name'),
      noWrap: true,
      render: (contact) => <ContactName contact={contact} />,
    },
    {
      accessor: 'number',
      title: t('contacts.form.number'),
      noWrap: true,
      render: (contact) => (
        <Text size="sm" dir="ltr" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatContactNumber(contact.number, contact.isGroup) || '—'}
        </Text>
      ),
    },
    {
      accessor: 'tags',
      title: t('contacts.tags'),
      render: (contact) => <TagBadges tags={contact.tags} />,
    },
    {
      accessor: 'wallets',
      title: t('contacts.wallets'),
      visibleMediaQuery: wide,
      render: (contact) =>
        contact.wallets.length ? (
          <Text size="sm">{contact.wallets.map((wallet) => wallet.name).join(', ')}</Text>
        ) : (
          <Text c="dimmed">—</Text>
        ),
    },
    {
      accessor: 'status',
      title: t('contacts.status'),
      render: (contact) => <StatusBadges contact={contact} />,
    },
    {
      accessor: 'actions',
      title: <span className="visually-hidden">{t('common.actions')}</span>,
      textAlign: 'right',
      width: props.canDelete ? 144 : 116,
      render: (contact) => <RowActions contact={contact} {...props} />,
    },
  ];
  return (
    <DataTable<ContactDto>
      data-testid="contacts-table"
      aria-label={t('contacts.title')}
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalSpacing="xs"
      minHeight={props.records.length ? undefined : 240}
      fetching={props.fetching}
      loadingText={t('common.loading')}
      noRecordsText={props.emptyText}
      noRecordsIcon={<IconAddressBook size={32} aria-hidden />}
      records={props.records}
      totalRecords={props.totalRecords}
      recordsPerPage={props.pageSize}
      page={props.page}
      onPageChange={props.onPageChange}
      paginationText={({ from, to }) => t('common.pagination', { from, to, total: props.totalText })}
      customRowAttributes={(contact) => ({ 'data-testid': `contact-row-${contact.id}` })}
      columns={columns}
    />
  );
}

/** The name, and under it the e-mail, else the WhatsApp profile name when it differs. */
function ContactName({ contact }: { contact: ContactDto }) {
  const other =
    contact.email || (contact.pushname && contact.pushname !== contact.name ? `~${contact.pushname}` : null);
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={contact.profilePicUrl} alt="" radius="xl" size={34} color="initials" name={contact.name}>
        {contactInitials(contact.name)}
      </Avatar>
      <Stack gap={0} miw={0}>
        <Text size="sm" fw={500}>
          {contact.name}
        </Text>
        {other ? (
          <Text size="xs" c="dimmed">
            {other}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}

function TagBadges({ tags }: { tags: ContactDto['tags'] }) {
  if (!tags.length) return <Text c="dimmed">—</Text>;
  return (
    <Group gap={4}>
      {tags.map((tag) => (
        <Badge
          key={tag.id}
          size="sm"
          variant="filled"
          color={tag.color || 'gray'}
          autoContrast
          tt="none"
          styles={WHOLE_TEXT}
        >
          {tag.tag}
        </Badge>
      ))}
    </Group>
  );
}

function StatusBadges({ contact }: { contact: ContactDto }) {
  const { t } = useTranslation();
  if (!contact.blocked && !contact.chatbotBlocked) return <Text c="dimmed">—</Text>;
  return (
    <Group gap={4}>
      {contact.blocked ? (
        <Badge
          size="sm"
          color="red"
          variant="light"
          styles={WHOLE_TEXT}
          leftSection={<IconLock size={12} aria-hidden />}
        >
          {t('contacts.blocked')}
        </Badge>
      ) : null}
      {contact.chatbotBlocked ? (
        <Badge
          size="sm"
          color="orange"
          variant="light"
          styles={WHOLE_TEXT}
          leftSection={<IconRobotOff size={12} aria-hidden />}
        >
          {t('contacts.chatbotOff')}
        </Badge>
      ) : null}
    </Group>
  );
}

function RowActions({
  contact,
  canDelete,
  onEdit,
  onDelete,
  onToggle,
}: { contact: ContactDto } & Pick<ContactsTableProps, 'canDelete' | 'onEdit' | 'onDelete' | 'onToggle'>) {
  const { t } = useTranslation();
  const name = contact.name;
  const blockLabel = contact.blocked ? t('contacts.unblock') : t('contacts.block');
  const chatbotLabel = contact.chatbotBlocked ? t('contacts.chatbotEnable') : t('contacts.chatbotDisable');
  return (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      <Tooltip label={t('common.edit')}>
        <ActionIcon
          variant="subtle"
          aria-label={t('contacts.editContact', { name })}
          onClick={() => onEdit(contact)}
          data-testid={`contact-edit-${contact.id}`}
        >
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={blockLabel}>
        <ActionIcon
          variant="subtle"
          color={contact.blocked ? 'red' : 'gray'}
          aria-label={`${blockLabel}: ${name}`}
          aria-pressed={contact.blocked}
          onClick={() => onToggle(contact, 'blocked')}
          data-testid={`contact-block-${contact.id}`}
        >
          {contact.blocked ? <IconLock size={18} aria-hidden /> : <IconLockOpen size={18} aria-hidden />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label={chatbotLabel}>
        <ActionIcon
          variant="subtle"
          color={contact.chatbotBlocked ? 'orange' : 'gray'}
          aria-label={`${chatbotLabel}: ${name}`}
          aria-pressed={contact.chatbotBlocked}
          onClick={() => onToggle(contact, 'chatbotBlocked')}
          data-testid={`contact-chatbot-${contact.id}`}
        >
          {contact.chatbotBlocked ? <IconRobotOff size={18} aria-hidden /> : <IconRobot size={18} aria-hidden />}
        </ActionIcon>
      </Tooltip>
      {canDelete ? (
        <Tooltip label={t('common.delete')}>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('contacts.deleteContact', { name })}
            onClick={() => onDelete(contact)}
            data-testid={`contact-delete-${contact.id}`}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </Group>
  );
}

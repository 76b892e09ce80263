import { useState } from 'react';
import { Button, Group, Menu, Modal, Stack, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconAddressBook,
  IconBrandWhatsapp,
  IconChevronDown,
  IconUserCheck,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../lib/i18n';
import { useCheckContacts, type CheckCounts } from '../api/check-contacts';
import { useSyncGroups } from '../api/sync-groups';
import { useSyncPhoneContacts, type SyncCounts } from '../api/sync-phone-contacts';
import { notifyFailure } from '../hooks/notify-failure';

type Tool = 'phone' | 'groups' | 'check';
type Outcome = { tool: 'phone' | 'groups'; counts: SyncCounts } | { tool: 'check'; counts: CheckCounts };

const ROWS: { [K in Tool]: readonly string[] } = {
  phone: ['total', 'created', 'renamed'],
  groups: ['total', 'created', 'renamed'],
  check: ['checked', 'valid', 'invalid', 'failed'],
};

/**
 * The WhatsApp session tools of the contacts screen (admins): sync the phone book, sync groups, check every number.
 * One runs at a time; the answer's counts show in a small dialog and the list is read again.
 */
export function SessionToolsMenu() {
  const { t } = useTranslation();
  const phone = useSyncPhoneContacts();
  const groups = useSyncGroups();
  const check = useCheckContacts();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const running: Tool | null = phone.isPending
    ? 'phone'
    : groups.isPending
      ? 'groups'
      : check.isPending
        ? 'check'
        : null;

  const failed = (tool: Tool) => (error: unknown) => notifyFailure(error, t(`contacts.session.${tool}.error`));
  const syncPhone = () =>
    phone.mutate(undefined, { onSuccess: (counts) => setOutcome({ tool: 'phone', counts }), onError: failed('phone') });
  const syncGroups = () =>
    groups.mutate(undefined, {
      onSuccess: (counts) => setOutcome({ tool: 'groups', counts }),
      onError: failed('groups'),
    });
  const confirmCheck = () =>
    modals.openConfirmModal({
      title: t('contacts.session.check.confirmTitle'),
      children: <Text size="sm">{t('contacts.session.check.confirm')}</Text>,
      labels: { confirm: t('contacts.session.check.run'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'confirm-check-contacts' } as Record<string, unknown>,
      cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
      onConfirm: () =>
        check.mutate(undefined, {
          onSuccess: (counts) => setOutcome({ tool: 'check', counts }),
          onError: failed('check'),
        }),
    });

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconBrandWhatsapp size={16} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            loading={running !== null}
            data-testid="contacts-session-tools"
          >
            {t('contacts.session.button')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconAddressBook size={16} aria-hidden />}
            onClick={syncPhone}
            disabled={running !== null}
            data-testid="contacts-sync-phone"
          >
            {t('contacts.session.phone.action')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconUsersGroup size={16} aria-hidden />}
            onClick={syncGroups}
            disabled={running !== null}
            data-testid="contacts-sync-groups"
          >
            {t('contacts.session.groups.action')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconUserCheck size={16} aria-hidden />}
            onClick={confirmCheck}
            disabled={running !== null}
            data-testid="contacts-check-numbers"
          >
            {t('contacts.session.check.action')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {/* Always present, so screen readers hear the text appear. */}
      <span className="visually-hidden" role="status">
        {running ? t(`contacts.session.${running}.running`) : ''}
      </span>
      <Modal
        opened={outcome !== null}
        onClose={() => setOutcome(null)}
        title={outcome ? t(`contacts.session.${outcome.tool}.doneTitle`) : ''}
        data-testid="contacts-session-result"
      >
        {outcome ? <OutcomeTable outcome={outcome} /> : null}
        <Group justify="flex-end" mt="md">
          <Button onClick={() => setOutcome(null)} data-testid="contacts-session-result-close">
            {t('common.close')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

function OutcomeTable({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation();
  const counts = outcome.counts as unknown as Record<string, number>;
  const format = new Intl.NumberFormat(currentLocale());
  return (
    <Stack gap="xs">
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {ROWS[outcome.tool].map((key) => (
            <Table.Tr key={key} data-testid={`contacts-session-count-${key}`}>
              <Table.Th scope="row" fw={500}>
                {t(`contacts.session.counts.${key}`)}
              </Table.Th>
              <Table.Td ta="right">{format.format(counts[key] ?? 0)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

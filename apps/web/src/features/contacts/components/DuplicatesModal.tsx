import { useState } from 'react';
import { Button, Center, Group, Modal, Paper, Radio, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconChecks, IconGitMerge } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { formatDate } from '../../../lib/dates';
import { notifySuccess } from '../../../lib/notify';
import { useContactDuplicates, useMergeContacts } from '../api/contact-duplicates';
import { formatContactNumber } from '../../../lib/contact-form';

/** Contacts sharing a number: per group, the one to keep; 'Mesclar' merges the others into it. */
export function DuplicatesModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('contacts.duplicates.title')} centered size="lg">
      {opened ? <DuplicateGroups /> : null}
    </Modal>
  );
}

function DuplicateGroups() {
  const { t } = useTranslation();
  const duplicates = useContactDuplicates(true);
  // Held here, not in the group: a merged group leaves the list, and its success must still be told.
  const merge = useMergeContacts();
  const onMerge = (targetId: number, sourceIds: number[]) =>
    merge.mutate({ targetId, sourceIds }, { onSuccess: () => notifySuccess(t('contacts.duplicates.merged')) });
  if (duplicates.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton h={120} radius="md" />
        <Skeleton h={120} radius="md" />
      </Stack>
    );
  }
  if (duplicates.isError) {
    return <QueryError error={duplicates.error} onRetry={() => void duplicates.refetch()} />;
  }
  const groups = duplicates.data.groups;
  if (!groups.length) {
    return (
      <Center py="xl">
        <Stack align="center" gap="xs">
          <ThemeIcon size={48} radius="xl" variant="light" color="teal">
            <IconChecks size={28} aria-hidden />
          </ThemeIcon>
          <Text c="dimmed" data-testid="contacts-duplicates-empty">
            {t('contacts.duplicates.empty')}
          </Text>
        </Stack>
      </Center>
    );
  }
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('contacts.duplicates.help')}
      </Text>
      {groups.map((group) => (
        <DuplicateGroup
          key={group.key}
          groupKey={group.key}
          contacts={group.contacts}
          merging={merge.isPending && group.contacts.some((contact) => contact.id === merge.variables?.targetId)}
          onMerge={onMerge}
        />
      ))}
    </Stack>
  );
}

function DuplicateGroup({
  groupKey,
  contacts,
  merging,
  onMerge,
}: {
  groupKey: string;
  contacts: ContactDto[];
  merging: boolean;
  onMerge: (targetId: number, sourceIds: number[]) => void;
}) {
  const { t } = useTranslation();
  const [keep, setKeep] = useState(String(contacts[0]?.id ?? ''));
  const targetId = Number(keep);
  const sourceIds = contacts.map((contact) => contact.id).filter((id) => id !== targetId);
  const label = formatContactNumber(groupKey) || groupKey;
  return (
    <Paper withBorder radius="md" p="md" data-testid={`contacts-duplicate-group-${groupKey}`}>
      <Radio.Group
        value={keep}
        onChange={setKeep}
        label={t('contacts.duplicates.group', { number: label })}
        description={t('contacts.duplicates.keep')}
      >
        <Stack gap="xs" mt="xs">
          {contacts.map((contact) => (
            <Radio
              key={contact.id}
              value={String(contact.id)}
              data-testid={`contacts-keep-${contact.id}`}
              label={
                <Text size="sm" component="span">
                  <Text span fw={500}>
                    {contact.name}
                  </Text>{' '}
                  <Text span c="dimmed" dir="ltr">
                    {formatContactNumber(contact.number, contact.isGroup)}
                  </Text>
                </Text>
              }
              description={[contact.email, t('contacts.duplicates.since', { date: formatDate(contact.createdAt) })]
                .filter(Boolean)
                .join(' · ')}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Group justify="flex-end" mt="sm">
        <Button
          leftSection={<IconGitMerge size={16} aria-hidden />}
          disabled={!sourceIds.length}
          loading={merging}
          onClick={() => onMerge(targetId, sourceIds)}
          data-testid={`contacts-merge-${groupKey}`}
        >
          {t('contacts.duplicates.merge')}
        </Button>
      </Group>
    </Paper>
  );
}

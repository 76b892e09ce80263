import { useState } from 'react';
import { Button, Checkbox, Group, Modal, MultiSelect, SimpleGrid, Stack, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TICKET_STATUSES, type TicketStatus } from '@conversa/shared';
import { useChannels, useKanbans, useQueues, useTags, useUsersOptions } from '../api/filter-options';
import { DEFAULT_FILTER, normalizeFilter, type TicketsFilter } from '../hooks/attendance-filter';

interface TicketFilterModalProps {
  opened: boolean;
  filter: TicketsFilter;
  /** Admin and super: users and "see all" (product-spec §6). */
  canSeeAll: boolean;
  onClose: () => void;
  onApply: (filter: TicketsFilter) => void;
}

const toValues = (ids: number[]) => ids.map(String);
const toIds = (values: string[]) => values.map(Number).filter((n) => Number.isInteger(n) && n > 0);

/** The advanced attendance filter (product-spec §2): stored per user when applied. */
export function TicketFilterModal({ opened, onClose, ...rest }: TicketFilterModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.filter.title')} size="lg">
      {opened ? <FilterForm onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}

function FilterForm({ filter, canSeeAll, onClose, onApply }: Omit<TicketFilterModalProps, 'opened'>) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<TicketsFilter>(filter);
  const queues = useQueues();
  const channels = useChannels();
  const tags = useTags();
  const kanbans = useKanbans();
  const users = useUsersOptions(canSeeAll);
  const set = (patch: Partial<TicketsFilter>) => setDraft((current) => ({ ...current, ...patch }));
  const ids = (key: 'queuesIds' | 'whatsappIds' | 'selectedUser' | 'tags' | 'kanbans') => ({
    value: toValues(draft[key]),
    onChange: (values: string[]) => set({ [key]: toIds(values) }),
    searchable: true,
    clearable: true,
    comboboxProps: { withinPortal: true },
    nothingFoundMessage: t('tickets.filter.nothingFound'),
  });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onApply(normalizeFilter(draft));
      }}
    >
      <Stack gap="sm">
        <Checkbox.Group
          label={t('tickets.filter.statuses')}
          value={draft.status}
          onChange={(values) => set({ status: values as TicketStatus[] })}
          error={draft.status.length === 0 ? t('tickets.filter.statusRequired') : undefined}
        >
          <Group mt={6}>
            {TICKET_STATUSES.map((status) => (
              <Checkbox
                key={status}
                value={status}
                label={t(`tickets.status.${status}`)}
                data-testid={`tickets-filter-status-${status}`}
              />
            ))}
          </Group>
        </Checkbox.Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <MultiSelect
            label={t('tickets.filter.queues')}
            data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.queue }))}
            data-testid="tickets-filter-queues"
            {...ids('queuesIds')}
          />
          <MultiSelect
            label={t('tickets.filter.channels')}
            data={(channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            data-testid="tickets-filter-channels"
            {...ids('whatsappIds')}
          />
          {canSeeAll ? (
            <MultiSelect
              label={t('tickets.filter.users')}
              data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
              data-testid="tickets-filter-users"
              {...ids('selectedUser')}
            />
          ) : null}
          <MultiSelect
            label={t('tickets.filter.tags')}
            data={(tags.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.tag }))}
            data-testid="tickets-filter-tags"
            {...ids('tags')}
          />
          <MultiSelect
            label={t('tickets.filter.kanbans')}
            data={(kanbans.data ?? []).map((lane) => ({ value: String(lane.id), label: lane.name }))}
            data-testid="tickets-filter-kanbans"
            {...ids('kanbans')}
          />
        </SimpleGrid>
        <Switch
          label={t('tickets.filter.unreadOnly')}
          checked={draft.withUnreadMessages}
          onChange={(event) => set({ withUnreadMessages: event.currentTarget.checked })}
          data-testid="tickets-filter-unread"
        />
        <Switch
          label={t('tickets.filter.unassignedOnly')}
          checked={draft.isNotAssignedUser}
          onChange={(event) => set({ isNotAssignedUser: event.currentTarget.checked })}
          data-testid="tickets-filter-unassigned"
        />
        <Switch
          label={t('tickets.filter.includeNoQueue')}
          checked={draft.includeNotQueueDefined}
          onChange={(event) => set({ includeNotQueueDefined: event.currentTarget.checked })}
          data-testid="tickets-filter-no-queue"
        />
        {canSeeAll ? (
          <Switch
            label={t('tickets.filter.showAll')}
            checked={draft.showAll}
            onChange={(event) => set({ showAll: event.currentTarget.checked })}
            data-testid="tickets-filter-show-all"
          />
        ) : null}
        <Group justify="space-between" mt="sm">
          <Button variant="subtle" data-testid="tickets-filter-reset" onClick={() => setDraft(DEFAULT_FILTER)}>
            {t('tickets.filter.reset')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" data-testid="tickets-filter-apply" disabled={draft.status.length === 0}>
              {t('tickets.filter.apply')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

import { useMemo, useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { contactAddressOn, type ContactDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { errorText } from '../../../lib/errors';
import { CONTACT_SEARCH_MIN, useChannels, useContactSearch } from '../api/filter-options';
import { existingTicketId, useCreateTicket } from '../api/tickets';

interface NewTicketModalProps {
  opened: boolean;
  userId: number;
  onClose: () => void;
  /** Goes to the created ticket, or to the open one a 409 pointed at. */
  onOpenTicket: (id: number) => void;
}

/** A new active conversation: contact (searched from 2 letters), channel, POST /tickets (client-contract §4.3). */
export function NewTicketModal({ opened, onClose, ...rest }: NewTicketModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.newTicket.title')}>
      {opened ? <NewTicketForm onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}

/**
 * What the form says about a failed create. Our server's 409 names its catalogue code in `code` and the ticket in
 * `error` as JSON (for reference clients), which must never be shown; a ticket the agent may not see comes as the bare
 * code; a reference server's 409 only carries the JSON.
 */
function createErrorText(error: Error): string {
  if (error instanceof ApiError && error.status === 409) {
    const code = (error.body as { code?: unknown } | null)?.code;
    if (typeof code === 'string') return errorText(code);
    if (existingTicketId(error) !== null) return errorText('ERR_OTHER_OPEN_TICKET');
  }
  return describeError(error);
}

const contactLabel = (contact: ContactDto) => (contact.number ? `${contact.name} (${contact.number})` : contact.name);

function NewTicketForm({ userId, onClose, onOpenTicket }: Omit<NewTicketModalProps, 'opened'>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [contact, setContact] = useState<ContactDto | null>(null);
  const [channelId, setChannelId] = useState<string | null>(null);
  const contacts = useContactSearch(debounced);
  const channels = useChannels();
  const create = useCreateTicket();

  const contactOptions = useMemo(() => {
    const found = debounced.length >= CONTACT_SEARCH_MIN ? (contacts.data ?? []) : [];
    const list = contact && !found.some((c) => c.id === contact.id) ? [contact, ...found] : found;
    return list.map((c) => ({ value: String(c.id), label: contactLabel(c), contact: c }));
  }, [contacts.data, contact, debounced]);
  // A channel where the chosen contact has no id (a phone-only contact on Telegram) is offered disabled, with why.
  const reaches = (c: { type: Parameters<typeof contactAddressOn>[0] }) =>
    !contact || !!contactAddressOn(c.type, contact);
  const channelOptions = (channels.data ?? []).map((c) => ({
    value: String(c.id),
    label: reaches(c) ? c.name : t('tickets.newTicket.unreachableOption', { channel: c.name }),
    disabled: !reaches(c),
  }));
  const defaultChannel =
    channels.data?.find((c) => c.isDefault) ?? (channels.data?.length === 1 ? channels.data[0] : undefined);
  const chosenChannelId = channelId ?? (defaultChannel ? String(defaultChannel.id) : null);
  const chosenChannel = channels.data?.find((c) => String(c.id) === chosenChannelId);
  const existingId = create.error ? existingTicketId(create.error) : null;
  const unreachable = contact && chosenChannel && !reaches(chosenChannel) ? chosenChannel : null;

  const submit = () => {
    if (!contact || !chosenChannel || unreachable) return;
    create.mutate(
      { contactId: contact.id, channelId: chosenChannel.id, channelType: chosenChannel.type, userId },
      {
        onSuccess: (id) => {
          onClose();
          onOpenTicket(id);
        },
      },
    );
  };

  const nothingFound =
    search.trim().length < CONTACT_SEARCH_MIN ? t('tickets.newTicket.typeMore') : t('tickets.newTicket.noContacts');

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Select
          label={t('tickets.newTicket.contact')}
          placeholder={t('tickets.newTicket.contactPlaceholder')}
          searchable
          required
          data={contactOptions}
          value={contact ? String(contact.id) : null}
          searchValue={search}
          onSearchChange={setSearch}
          // The server searches; every option it returned is shown.
          filter={({ options }) => options}
          onChange={(value) => {
            setContact(contactOptions.find((o) => o.value === value)?.contact ?? null);
            create.reset();
          }}
          nothingFoundMessage={contacts.isFetching ? t('common.loading') : nothingFound}
          data-testid="new-ticket-contact"
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('tickets.newTicket.channel')}
          required
          data={channelOptions}
          value={chosenChannelId}
          onChange={(value) => {
            setChannelId(value);
            create.reset();
          }}
          nothingFoundMessage={t('tickets.newTicket.noChannels')}
          data-testid="new-ticket-channel"
          comboboxProps={{ withinPortal: true }}
        />
        {unreachable && contact ? (
          <Alert
            color="yellow"
            icon={<IconAlertTriangle aria-hidden />}
            role="alert"
            data-testid="new-ticket-unreachable"
          >
            {t('tickets.newTicket.unreachable', { name: contact.name, channel: unreachable.name })}
          </Alert>
        ) : null}
        {create.error ? (
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} role="alert" data-testid="new-ticket-error">
            {createErrorText(create.error)}
            {existingId !== null ? (
              <div>
                <Button
                  mt="xs"
                  size="xs"
                  variant="light"
                  data-testid="new-ticket-open-existing"
                  onClick={() => {
                    onClose();
                    onOpenTicket(existingId);
                  }}
                >
                  {t('tickets.newTicket.openExisting')}
                </Button>
              </div>
            ) : null}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            loading={create.isPending}
            disabled={!contact || !chosenChannel || !!unreachable}
            data-testid="new-ticket-submit"
          >
            {t('tickets.newTicket.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { useState } from 'react';
import { Button, Center, Group, Loader, Modal, Radio, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../../lib/notify';
import { useForwardMessages } from '../../api/messages';
import { CONTACT_SEARCH_MIN, useContactSearch } from '../../hooks/chat-contact';

/** Forward the selected messages (≤ 10) to exactly one contact found by a search of at least 2 letters. */
export function ForwardModal({
  messageIds,
  opened,
  onClose,
  onDone,
}: {
  messageIds: number[];
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [contactId, setContactId] = useState<string | null>(null);
  const contacts = useContactSearch(debounced);
  const forward = useForwardMessages();
  const tooShort = debounced.length < CONTACT_SEARCH_MIN;

  const submit = () => {
    if (!contactId) return;
    forward.mutate(
      { messageIds, contactId: Number(contactId) },
      {
        onSuccess: () => {
          notifySuccess(t('chat.forward.done', { count: messageIds.length }));
          onDone();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('chat.forward.title', { count: messageIds.length })} centered>
      <Stack gap="sm">
        <TextInput
          label={t('chat.forward.search')}
          description={t('chat.forward.searchHint')}
          leftSection={<IconSearch size={14} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-autofocus
          data-testid="chat-forward-search"
        />
        <ScrollArea.Autosize mah={280}>
          {tooShort ? null : contacts.isLoading ? (
            <Center p="sm" role="status" aria-label={t('common.loading')}>
              <Loader size="sm" />
            </Center>
          ) : contacts.data?.contacts.length ? (
            <Radio.Group value={contactId} onChange={setContactId} aria-label={t('chat.forward.contact')}>
              <Stack gap={6}>
                {contacts.data.contacts.map((contact) => (
                  <Radio
                    key={contact.id}
                    value={String(contact.id)}
                    label={contact.number ? `${contact.name} (${contact.number})` : contact.name}
                    data-testid={`chat-forward-contact-${contact.id}`}
                  />
                ))}
              </Stack>
            </Radio.Group>
          ) : (
            <Text size="sm" c="dimmed">
              {contacts.isError ? t('common.loadError') : t('chat.forward.noContacts')}
            </Text>
          )}
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} disabled={!contactId} loading={forward.isPending} data-testid="chat-forward-submit">
            {t('chat.forward.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

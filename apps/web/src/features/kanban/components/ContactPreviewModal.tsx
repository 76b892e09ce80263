import { Avatar, Box, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contactDtoSchema } from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { TagBadges } from '../../../components/TagMultiSelect';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** A card opened: the contact as the server has it now (GET /contacts/{id}), its number, e-mail and tags. */
export function ContactPreviewModal({ contactId, onClose }: { contactId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const contact = useQuery({
    queryKey: queryKeys.contact(contactId ?? 0),
    queryFn: async () => contactDtoSchema.parse(await api.get(`/contacts/${contactId}`, { background: true })),
    enabled: contactId !== null,
  });
  const data = contact.data;
  return (
    <Modal opened={contactId !== null} onClose={onClose} title={t('kanban.contact.title')} centered>
      {contact.isPending ? (
        <Center h={120} role="status">
          <Loader size="sm" aria-label={t('common.loading')} />
        </Center>
      ) : contact.isError || !data ? (
        <QueryError error={contact.error} onRetry={() => void contact.refetch()} />
      ) : (
        <Stack gap="sm" data-testid="kanban-contact">
          <Group gap="md" wrap="nowrap">
            <Avatar src={data.profilePicUrl} alt="" radius="xl" size="lg" name={data.name} color="initials" />
            <div style={{ minWidth: 0 }}>
              <Text fw={600}>{data.name}</Text>
              {data.pushname && data.pushname !== data.name ? (
                <Text size="sm" c="dimmed">
                  {data.pushname}
                </Text>
              ) : null}
            </div>
          </Group>
          <Field label={t('kanban.contact.number')} value={data.number} />
          <Field label={t('kanban.contact.email')} value={data.email} />
          <div>
            <Text size="xs" c="dimmed">
              {t('kanban.contact.tags')}
            </Text>
            {data.tags.length === 0 ? (
              <Text size="sm">{t('kanban.contact.none')}</Text>
            ) : (
              <Box mt={4}>
                <TagBadges tags={data.tags} />
              </Box>
            )}
          </div>
        </Stack>
      )}
    </Modal>
  );
}

function Field({ label, value }: { label: string; value: string | null }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || t('kanban.contact.none')}</Text>
    </div>
  );
}

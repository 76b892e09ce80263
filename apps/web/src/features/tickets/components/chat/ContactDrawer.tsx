import { useState } from 'react';
import { ActionIcon, Avatar, Badge, Button, Divider, Drawer, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock, IconLockOpen, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '@conversa/shared';
import { formatDate } from '../../../../lib/dates';
import { dateInputFormat, parseDateInput } from '../../../../lib/date-input';
import { currentLocale } from '../../../../lib/i18n';
import { notifySuccess } from '../../../../lib/notify';
import { initialsOf } from '../../hooks/chat-format';
import { useUpdateContact } from '../../hooks/chat-contact';

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || '—'}</Text>
    </Stack>
  );
}

interface FormValues {
  name: string;
  number: string;
  email: string;
  cpf: string;
  birthday: string;
  extraInfo: { key: string; name: string; value: string }[];
}

let rowSeq = 0;
const newRow = (name = '', value = '') => ({ key: `row-${(rowSeq += 1)}`, name, value });

const formatBirthday = (iso: string | null, format: string) => {
  if (!iso) return '';
  const [y, m, d] = iso.split('-');
  return format === 'MM/DD/YYYY' ? `${m}/${d}/${y}` : `${d}/${m}/${y}`;
};

function ContactEditForm({ contact, ticketId, onDone }: { contact: ContactDto; ticketId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const update = useUpdateContact(ticketId);
  const form = useForm<FormValues>({
    initialValues: {
      name: contact.name,
      number: contact.number ?? '',
      email: contact.email,
      cpf: contact.cpf ?? '',
      birthday: formatBirthday(contact.birthdayDate, dateInputFormat(locale)),
      extraInfo: contact.extraInfo.map((row) => newRow(row.name, row.value)),
    },
    validate: {
      name: (value) => (value.trim() ? null : t('chat.contact.nameRequired')),
      email: (value) =>
        !value.trim() || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? null : t('chat.contact.emailInvalid'),
      birthday: (value) => (!value.trim() || parseDateInput(value, locale) ? null : t('chat.contact.birthdayInvalid')),
    },
  });
  const submit = form.onSubmit((values) => {
    update.mutate(
      {
        id: contact.id,
        input: {
          name: values.name.trim(),
          number: values.number.trim() || null,
          email: values.email.trim(),
          cpf: values.cpf.trim() || null,
          birthdayDate: values.birthday.trim() ? parseDateInput(values.birthday, locale) : null,
          extraInfo: values.extraInfo
            .filter((row) => row.name.trim())
            .map((row) => ({ name: row.name.trim(), value: row.value })),
        },
      },
      {
        onSuccess: () => {
          notifySuccess(t('chat.contact.saved'));
          onDone();
        },
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('fields.name')}
          required
          maxLength={200}
          data-testid="chat-contact-form-name"
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('chat.contact.number')}
          type="tel"
          dir="ltr"
          maxLength={40}
          data-testid="chat-contact-form-number"
          {...form.getInputProps('number')}
        />
        <TextInput
          label={t('fields.email')}
          type="email"
          maxLength={254}
          data-testid="chat-contact-form-email"
          {...form.getInputProps('email')}
        />
        <TextInput
          label={t('chat.contact.cpf')}
          maxLength={20}
          data-testid="chat-contact-form-cpf"
          {...form.getInputProps('cpf')}
        />
        <TextInput
          label={t('chat.contact.birthday')}
          placeholder={dateInputFormat(locale)}
          data-testid="chat-contact-form-birthday"
          {...form.getInputProps('birthday')}
        />
        <Text size="sm" fw={500}>
          {t('chat.contact.extraInfo')}
        </Text>
        {form.values.extraInfo.map((row, index) => (
          <Group key={row.key} gap="xs" wrap="nowrap" align="flex-start">
            <TextInput
              flex={2}
              aria-label={t('chat.contact.extraName')}
              placeholder={t('chat.contact.extraName')}
              maxLength={120}
              data-testid={`chat-contact-form-extra-name-${index}`}
              {...form.getInputProps(`extraInfo.${index}.name`)}
            />
            <TextInput
              flex={3}
              aria-label={t('chat.contact.extraValue')}
              placeholder={t('chat.contact.extraValue')}
              maxLength={2000}
              data-testid={`chat-contact-form-extra-value-${index}`}
              {...form.getInputProps(`extraInfo.${index}.value`)}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('chat.contact.extraRemove', { index: index + 1 })}
              onClick={() => form.removeListItem('extraInfo', index)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <div>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => form.insertListItem('extraInfo', newRow())}
            disabled={form.values.extraInfo.length >= 50}
            data-testid="chat-contact-form-extra-add"
          >
            {t('chat.contact.extraAdd')}
          </Button>
        </div>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending} data-testid="chat-contact-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Contact details beside the chat: fields, tags, wallets, extra info; edit and block/unblock (PUT /contacts/{id}). */
export function ContactDrawer({
  contact,
  ticketId,
  opened,
  onClose,
}: {
  contact: ContactDto;
  ticketId: number;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const update = useUpdateContact(ticketId);
  const toggleBlock = () =>
    update.mutate(
      { id: contact.id, input: { blocked: !contact.blocked } },
      {
        onSuccess: (saved) =>
          notifySuccess(saved.blocked ? t('chat.contact.blockedDone') : t('chat.contact.unblockedDone')),
      },
    );
  return (
    <Drawer
      opened={opened}
      onClose={() => {
        setEditing(false);
        onClose();
      }}
      position="right"
      title={t('chat.contact.title')}
      data-testid="chat-contact-drawer"
    >
      {editing ? (
        <ContactEditForm key={contact.id} contact={contact} ticketId={ticketId} onDone={() => setEditing(false)} />
      ) : (
        <Stack gap="sm">
          <Group gap="sm">
            <Avatar src={contact.profilePicUrl} alt="" size="lg" radius="xl">
              {initialsOf(contact.name)}
            </Avatar>
            <Stack gap={0}>
              <Text fw={600}>{contact.name}</Text>
              {contact.blocked ? (
                <Badge color="red" variant="light" size="sm">
                  {t('chat.contact.blocked')}
                </Badge>
              ) : null}
            </Stack>
          </Group>
          <Field label={t('chat.contact.number')} value={contact.number} />
          <Field label={t('fields.email')} value={contact.email} />
          <Field label={t('chat.contact.cpf')} value={contact.cpf} />
          <Field label={t('chat.contact.birthday')} value={formatDate(contact.birthdayDate)} />
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              {t('chat.contact.tags')}
            </Text>
            {contact.tags.length ? (
              <Group gap={4}>
                {contact.tags.map((tag) => (
                  <Badge key={tag.id} color={tag.color || 'gray'} autoContrast tt="none">
                    {tag.tag}
                  </Badge>
                ))}
              </Group>
            ) : (
              <Text size="sm">—</Text>
            )}
          </Stack>
          <Field label={t('chat.contact.wallets')} value={contact.wallets.map((w) => w.name).join(', ')} />
          <Divider label={t('chat.contact.extraInfo')} labelPosition="left" />
          {contact.extraInfo.length ? (
            contact.extraInfo.map((row, index) => <Field key={index} label={row.name} value={row.value} />)
          ) : (
            <Text size="sm" c="dimmed">
              {t('chat.contact.noExtraInfo')}
            </Text>
          )}
          <Group mt="sm">
            <Button
              variant="light"
              leftSection={<IconPencil size={14} aria-hidden />}
              onClick={() => setEditing(true)}
              data-testid="chat-contact-edit"
            >
              {t('common.edit')}
            </Button>
            <Button
              variant="light"
              color={contact.blocked ? 'teal' : 'red'}
              leftSection={
                contact.blocked ? <IconLockOpen size={14} aria-hidden /> : <IconLock size={14} aria-hidden />
              }
              onClick={toggleBlock}
              loading={update.isPending}
              aria-pressed={contact.blocked}
              data-testid="chat-contact-block"
            >
              {contact.blocked ? t('chat.contact.unblock') : t('chat.contact.block')}
            </Button>
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}

import { useState } from 'react';
import { Avatar, Badge, Button, Divider, Drawer, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock, IconLockOpen, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '@conversa/shared';
import { ContactBirthdayInput } from '../../../../components/ContactBirthdayInput';
import { ExtraInfoEditor } from '../../../../components/ExtraInfoEditor';
import { TagMultiSelect } from '../../../../components/TagMultiSelect';
import {
  contactToValues,
  showContactSaveError,
  validateContact,
  valuesToInput,
  type ContactFormValues,
} from '../../../../lib/contact-form';
import { formatDate } from '../../../../lib/dates';
import { formatCpfCnpj } from '../../../../lib/masks';
import { notifySuccess } from '../../../../lib/notify';
import { useSetContactTags } from '../../../../lib/tags';
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

/**
 * The contact's own fields, with the contacts screen's values, checks and body (lib/contact-form.ts): an unchanged
 * number is not sent, so a group contact saves too. Tags are saved from the drawer's tag picker at once; wallets and
 * blocking are edited elsewhere.
 */
function ContactEditForm({ contact, ticketId, onDone }: { contact: ContactDto; ticketId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateContact(ticketId);
  const form = useForm<ContactFormValues>({
    mode: 'controlled',
    initialValues: contactToValues(contact),
    validate: (values) => validateContact(values, t, contact),
  });
  const submit = form.onSubmit((values) => {
    update.mutate(
      { id: contact.id, input: valuesToInput(values, contact) },
      {
        onSuccess: () => {
          notifySuccess(t('contacts.saved'));
          onDone();
        },
        onError: (error) => showContactSaveError(form, error),
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
          data-testid="contact-form-name"
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('contacts.form.number')}
          description={t('contacts.form.numberHint')}
          type="tel"
          inputMode="tel"
          dir="ltr"
          maxLength={40}
          data-testid="contact-form-number"
          {...form.getInputProps('number')}
        />
        <TextInput
          label={t('fields.email')}
          type="email"
          maxLength={254}
          data-testid="contact-form-email"
          {...form.getInputProps('email')}
        />
        <TextInput
          label={t('fields.cpfCnpj')}
          inputMode="numeric"
          maxLength={18}
          data-testid="contact-form-cpf"
          {...form.getInputProps('cpf')}
          onChange={(event) => form.setFieldValue('cpf', formatCpfCnpj(event.currentTarget.value))}
        />
        <ContactBirthdayInput form={form} />
        <ExtraInfoEditor form={form} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending} data-testid="contact-form-submit">
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
  const setTags = useSetContactTags();
  const tagIds = setTags.isPending ? setTags.variables.tags : contact.tags.map((tag) => tag.id);
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
          <TagMultiSelect
            label={t('chat.contact.tags')}
            value={tagIds}
            known={contact.tags}
            onChange={(tags) =>
              setTags.mutate(
                { contactId: contact.id, tags },
                { onSuccess: () => notifySuccess(t('org.tagPicker.saved')) },
              )
            }
            data-testid="chat-contact-tags"
          />
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

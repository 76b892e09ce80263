import { useState } from 'react';
import { Button, Divider, Group, Modal, MultiSelect, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '@conversa/shared';
import { formatCpfCnpj } from '../../../lib/masks';
import { notifySuccess } from '../../../lib/notify';
import { useSaveContact, useWalletOwners } from '../api/contacts';
import {
  contactToValues,
  showContactSaveError,
  validateContact,
  valuesToInput,
  type ContactFormValues,
} from '../../../lib/contact-form';
import { ContactBirthdayInput } from '../../../components/ContactBirthdayInput';
import { ExtraInfoEditor } from '../../../components/ExtraInfoEditor';
import { TagMultiSelect } from '../../../components/TagMultiSelect';

interface ContactFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The contact being edited; undefined creates one. */
  contact?: ContactDto;
  canListUsers: boolean;
}

export function ContactFormModal({ opened, onClose, contact, canListUsers }: ContactFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={contact ? t('contacts.editTitle') : t('contacts.newTitle')}
      centered
      size="lg"
    >
      {opened ? (
        <ContactForm key={contact?.id ?? 'new'} contact={contact} onDone={onClose} canListUsers={canListUsers} />
      ) : null}
    </Modal>
  );
}

function ContactForm({
  contact,
  onDone,
  canListUsers,
}: {
  contact?: ContactDto;
  onDone: () => void;
  canListUsers: boolean;
}) {
  const { t } = useTranslation();
  const save = useSaveContact();
  const owners = useWalletOwners(canListUsers);
  const [tags, setTags] = useState<number[]>(() => (contact?.tags ?? []).map((tag) => tag.id));
  const form = useForm<ContactFormValues>({
    mode: 'controlled',
    initialValues: contactToValues(contact),
    validate: (values) => validateContact(values, t, contact),
  });

  const submit = form.onSubmit((values) => {
    save.mutate(
      {
        id: contact?.id,
        input: valuesToInput(values, contact),
        wallets: canListUsers ? values.wallets.map(Number) : undefined,
        tags,
      },
      {
        onSuccess: () => {
          notifySuccess(contact ? t('contacts.saved') : t('contacts.created'));
          onDone();
        },
        onError: (error) => showContactSaveError(form, error),
      },
    );
  });

  const walletOptions = new Map<string, string>();
  for (const wallet of contact?.wallets ?? []) walletOptions.set(String(wallet.id), wallet.name);
  for (const user of owners.data ?? []) walletOptions.set(String(user.id), user.name);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('fields.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={200}
          data-testid="contact-form-name"
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('contacts.form.number')}
            description={t('contacts.form.numberHint')}
            placeholder="+55 11 91234-5678"
            type="tel"
            inputMode="tel"
            dir="ltr"
            autoComplete="off"
            maxLength={40}
            data-testid="contact-form-number"
            {...form.getInputProps('number')}
          />
          <TextInput
            label={t('fields.email')}
            description={t('contacts.form.emailHint')}
            type="email"
            autoComplete="off"
            maxLength={254}
            data-testid="contact-form-email"
            {...form.getInputProps('email')}
          />
          <TextInput
            label={t('fields.cpfCnpj')}
            description={t('contacts.form.cpfHint')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={18}
            data-testid="contact-form-cpf"
            {...form.getInputProps('cpf')}
            onChange={(event) => form.setFieldValue('cpf', formatCpfCnpj(event.currentTarget.value))}
          />
          <ContactBirthdayInput form={form} />
          <TextInput
            label={t('contacts.form.firstName')}
            maxLength={120}
            autoComplete="off"
            {...form.getInputProps('firstName')}
          />
          <TextInput
            label={t('contacts.form.lastName')}
            maxLength={120}
            autoComplete="off"
            {...form.getInputProps('lastName')}
          />
        </SimpleGrid>
        <TextInput
          label={t('contacts.form.businessName')}
          maxLength={200}
          autoComplete="off"
          {...form.getInputProps('businessName')}
        />
        <TagMultiSelect
          value={tags}
          onChange={setTags}
          known={contact?.tags}
          description={t('org.tagPicker.hint')}
          data-testid="contact-form-tags"
        />
        <Divider />
        <ExtraInfoEditor form={form} />
        <Divider />
        {canListUsers ? (
          <MultiSelect
            label={t('contacts.wallets')}
            description={t('contacts.form.walletsHint')}
            placeholder={form.getValues().wallets.length ? undefined : t('contacts.form.walletsPlaceholder')}
            data={[...walletOptions].map(([value, label]) => ({ value, label }))}
            searchable
            clearable
            nothingFoundMessage={t('contacts.form.walletsNone')}
            disabled={owners.isPending}
            data-testid="contact-form-wallets"
            {...form.getInputProps('wallets')}
          />
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Switch
            label={t('contacts.form.blocked')}
            description={t('contacts.form.blockedHelp')}
            color="red"
            data-testid="contact-form-blocked"
            {...form.getInputProps('blocked', { type: 'checkbox' })}
          />
          <Switch
            label={t('contacts.form.chatbotBlocked')}
            description={t('contacts.form.chatbotBlockedHelp')}
            color="orange"
            data-testid="contact-form-chatbotBlocked"
            {...form.getInputProps('chatbotBlocked', { type: 'checkbox' })}
          />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="contact-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

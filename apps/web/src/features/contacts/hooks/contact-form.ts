/** The contact form: its values, their checks (product-spec §5 Contact) and the body the API takes. */
import type { TFunction } from 'i18next';
import { isValidCpfCnpj, type ContactDto, type ContactInput } from '@conversa/shared';
import { formatCpfCnpj } from '../../../lib/masks';
import { formatContactNumber } from './contact-format';

export interface ExtraInfoRow {
  /** React key only. */
  key: string;
  name: string;
  value: string;
}

export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  cpf: string;
  /** YYYY-MM-DD or null. */
  birthdayDate: string | null;
  firstName: string;
  lastName: string;
  businessName: string;
  extraInfo: ExtraInfoRow[];
  /** User ids as strings (MultiSelect values). */
  wallets: string[];
  blocked: boolean;
  chatbotBlocked: boolean;
}

/** Server codes that belong to one field of the form (shown under it, besides the toast). */
export const FIELD_OF_CODE: Record<string, keyof ContactFormValues> = {
  ERR_WAPP_INVALID_CONTACT: 'number',
  ERR_WAPP_CHECK_CONTACT: 'number',
  ERR_DUPLICATED_CONTACT: 'number',
  ERR_INVALID_CPF_CNPJ: 'cpf',
};

let rowSeq = 0;
export const newExtraInfoRow = (name = '', value = ''): ExtraInfoRow => {
  rowSeq += 1;
  return { key: `extra-${rowSeq}`, name, value };
};

export function contactToValues(contact?: ContactDto): ContactFormValues {
  return {
    name: contact?.name ?? '',
    number: contact ? formatContactNumber(contact.number, contact.isGroup) : '',
    email: contact?.email ?? '',
    cpf: contact?.cpf ? formatCpfCnpj(contact.cpf) : '',
    birthdayDate: contact?.birthdayDate ?? null,
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    businessName: contact?.businessName ?? '',
    extraInfo: (contact?.extraInfo ?? []).map((item) => newExtraInfoRow(item.name, item.value)),
    wallets: (contact?.wallets ?? []).map((wallet) => String(wallet.id)),
    blocked: contact?.blocked ?? false,
    chatbotBlocked: contact?.chatbotBlocked ?? false,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const digitCount = (value: string) => value.replace(/\D/g, '').length;

export function validateContact(values: ContactFormValues, t: TFunction): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.name.trim()) errors.name = t('validation.required', { attribute: t('fields.name') });
  const number = values.number.trim();
  if (number && (digitCount(number) < 8 || digitCount(number) > 15)) errors.number = t('contacts.form.numberInvalid');
  const email = values.email.trim();
  if (email && !EMAIL.test(email)) errors.email = t('validation.invalid', { attribute: t('fields.email') });
  if (values.cpf.trim() && !isValidCpfCnpj(values.cpf)) errors.cpf = t('validation.cpfCnpj');
  values.extraInfo.forEach((row, index) => {
    if (!row.name.trim() && row.value.trim()) {
      errors[`extraInfo.${index}.name`] = t('validation.required', { attribute: t('contacts.form.extraInfoName') });
    }
  });
  return errors;
}

const textOrNull = (value: string) => value.trim() || null;

/**
 * The POST/PUT body. The number goes as typed (the server reads `+`, spaces and punctuation); an unchanged number is
 * left out of an update, so a contact whose number the server would not accept again (a group id) still saves.
 */
export function valuesToInput(values: ContactFormValues, contact?: ContactDto): ContactInput {
  const number = values.number.trim();
  const numberUnchanged = contact !== undefined && number === formatContactNumber(contact.number, contact.isGroup);
  return {
    name: values.name.trim(),
    ...(numberUnchanged ? {} : { number: number || null }),
    email: values.email.trim(),
    cpf: values.cpf.trim() ? formatCpfCnpj(values.cpf) : null,
    birthdayDate: values.birthdayDate || null,
    firstName: textOrNull(values.firstName),
    lastName: textOrNull(values.lastName),
    businessName: textOrNull(values.businessName),
    extraInfo: values.extraInfo
      .filter((row) => row.name.trim() || row.value.trim())
      .map((row) => ({ name: row.name.trim(), value: row.value.trim() })),
    blocked: values.blocked,
    chatbotBlocked: values.chatbotBlocked,
  };
}

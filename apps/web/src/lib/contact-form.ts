/**
 * The contact form shared by the contacts screen and the chat's contact drawer: its values, their checks
 * (product-spec §5 Contact), the body the API takes, and how a number reads on screen.
 */
import type { TFunction } from 'i18next';
import { isValidCpfCnpj, type ContactDto, type ContactInput } from '@conversa/shared';
import { ApiError, describeError } from './api';
import { formatCpfCnpj } from './masks';
import { notifyError } from './notify';

/**
 * Numbers in the international form, Brazilian ones with area code and hyphen: `5511912345678` ->
 * `+55 (11) 91234-5678`; other countries `+<digits>`; group ids as they are.
 */
export function formatContactNumber(number: string | null | undefined, isGroup = false): string {
  if (!number) return '';
  if (isGroup) return number;
  const digits = number.replace(/\D/g, '');
  if (!digits) return number;
  if (digits.startsWith('55') && (digits.length === 12 || digits.length === 13)) {
    const local = digits.slice(4);
    const split = local.length - 4;
    return `+55 (${digits.slice(2, 4)}) ${local.slice(0, split)}-${local.slice(split)}`;
  }
  return `+${digits}`;
}

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

/** A real calendar date as YYYY-MM-DD (2023-02-29 and 1990-02-31 are not). */
export function isIsoBirthday(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const digitCount = (value: string) => value.replace(/\D/g, '').length;

/** The number as it stands for `contact` (an edit that leaves it so neither checks nor sends it). */
const numberUnchanged = (number: string, contact?: ContactDto) =>
  contact !== undefined && number === formatContactNumber(contact.number, contact.isGroup);

/** Field errors; an unchanged number is not checked (a group's id is no phone number, and it is not sent). */
export function validateContact(values: ContactFormValues, t: TFunction, contact?: ContactDto): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.name.trim()) errors.name = t('validation.required', { attribute: t('fields.name') });
  const number = values.number.trim();
  const checkNumber = number && !numberUnchanged(number, contact);
  if (checkNumber && (digitCount(number) < 8 || digitCount(number) > 15))
    errors.number = t('contacts.form.numberInvalid');
  const email = values.email.trim();
  if (email && !EMAIL.test(email)) errors.email = t('validation.invalid', { attribute: t('fields.email') });
  if (values.cpf.trim() && !isValidCpfCnpj(values.cpf)) errors.cpf = t('validation.cpfCnpj');
  // The birthday field keeps a typed text that is no date (31/02/1990) as its value: refused, never saved as null.
  if (values.birthdayDate !== null && !isIsoBirthday(values.birthdayDate))
    errors.birthdayDate = t('validation.invalidDate');
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
  return {
    name: values.name.trim(),
    ...(numberUnchanged(number, contact) ? {} : { number: number || null }),
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

/** A failed save: under its field (FIELD_OF_CODE, or the field the server names) and, unless already shown, a toast. */
export function showContactSaveError(
  form: { values: ContactFormValues; setFieldError: (field: string, error: string) => void },
  error: unknown,
): void {
  const code = error instanceof ApiError ? error.code : null;
  const field = (code && FIELD_OF_CODE[code]) ?? (error instanceof ApiError ? error.field : undefined);
  if (field && field in form.values) form.setFieldError(field, describeError(error));
  if (!(error instanceof ApiError && error.notified)) notifyError(describeError(error));
}

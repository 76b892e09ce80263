/** The contact field rules shared by the API and the import: number normalisation and the CPF/CNPJ check. */
import { isValidCpfCnpj, type contactUpdateSchema } from '@conversa/shared';
import type { z } from 'zod';
import { fail } from '../../platform/http/errors.js';
import { normalizeNumber } from './contacts.number.js';
import type { ContactValues } from './contacts.repository.js';

export type ContactEdit = z.output<typeof contactUpdateSchema>;

/**
 * The columns an edit sets (keys left out of a partial body stay untouched). Groups keep their raw id as number.
 * Throws ERR_WAPP_INVALID_CONTACT (number) or ERR_INVALID_CPF_CNPJ (cpf).
 */
export function contactColumns(edit: ContactEdit, isGroup = false): Partial<ContactValues> {
  const { tags: _tags, wallets: _wallets, number, cpf, ...rest } = edit;
  // The remaining keys are column names; undefined means "not in the body".
  const columns = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  ) as Partial<ContactValues>;
  if (number !== undefined) columns.number = number === null || isGroup ? number : validNumber(number);
  if (cpf !== undefined) {
    if (cpf !== null && !isValidCpfCnpj(cpf)) throw fail('ERR_INVALID_CPF_CNPJ', 'cpf');
    columns.cpf = cpf;
  }
  return columns;
}

function validNumber(input: string): string {
  const number = normalizeNumber(input);
  if (!number) throw fail('ERR_WAPP_INVALID_CONTACT', 'number');
  return number;
}

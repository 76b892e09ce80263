/** The import's row rules: the API's own contact rules per row, and the first row of a number wins. */
import { contactInputSchema, type ContactImportRowError, type ErrorCode } from '@conversa/shared';
import { AppError } from '../../platform/http/errors.js';
import type { ImportValues } from './contacts.bulk.repository.js';
import type { ImportRow } from './contacts.import.parse.js';
import { contactColumns } from './contacts.rules.js';

/** The row as contact columns, or why it is refused. */
export function prepareImportRow(raw: ImportRow): ImportValues | ContactImportRowError {
  const refuse = (reason: ContactImportRowError['reason'], value: string) => ({
    row: raw.row,
    reason,
    ...(value ? { value: value.slice(0, 100) } : {}),
  });
  if (!raw.name || !raw.number) return refuse('ERR_VALIDATION', raw.name || raw.number);
  const input = {
    name: raw.name,
    number: raw.number,
    email: raw.email,
    cpf: raw.cpf || null,
    birthdayDate: isoBirthday(raw.birthday),
  };
  const parsed = contactInputSchema.safeParse(input);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'name') as keyof typeof input;
    return refuse('ERR_VALIDATION', String(input[field] ?? ''));
  }
  try {
    const columns = contactColumns(parsed.data);
    return {
      name: parsed.data.name,
      number: columns.number!,
      email: columns.email ?? '',
      cpf: columns.cpf ?? null,
      birthdayDate: columns.birthdayDate ?? null,
    };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return refuse(
      error.code as Extract<ErrorCode, ContactImportRowError['reason']>,
      error.field === 'cpf' ? raw.cpf : raw.number,
    );
  }
}

/** prepareImportRow, and a number already seen earlier in the file is refused (the first row wins). */
export function checkRow(raw: ImportRow, seen: Set<string>): ImportValues | ContactImportRowError {
  const prepared = prepareImportRow(raw);
  if ('reason' in prepared) return prepared;
  if (seen.has(prepared.number)) return { row: raw.row, reason: 'ERR_DUPLICATED_CONTACT', value: raw.number };
  seen.add(prepared.number);
  return prepared;
}

/** DD/MM/YYYY (the spreadsheet convention of the spec) or a stored date, as YYYY-MM-DD; other text as written. */
function isoBirthday(value: string | Date): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  return match ? `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}` : value;
}

/**
 * The example import file (product-spec §5): the columns Nome and Número in Portuguese, Name and Number otherwise,
 * generated here so it always matches what the server reads.
 */
import type { Locale } from '@conversa/shared';
import { triggerDownload } from './download';

const portuguese = (locale: Locale) => locale === 'pt' || locale === 'pt-br';

export function importColumns(locale: Locale): { name: string; number: string } {
  return portuguese(locale) ? { name: 'Nome', number: 'Número' } : { name: 'Name', number: 'Number' };
}

/** The two required columns, then the optional e-mail the server also reads. */
export function exampleCsv(locale: Locale): string {
  const { name, number } = importColumns(locale);
  const email = portuguese(locale) ? 'E-mail' : 'Email';
  return [
    `${name},${number},${email}`,
    'Maria Silva,5511912345678,maria@example.com',
    'João Pereira,351912345678,',
    '',
  ].join('\r\n');
}

export function downloadExampleCsv(locale: Locale): void {
  // The byte-order mark makes spreadsheet programs read the accents as UTF-8; the server ignores it.
  const url = URL.createObjectURL(new Blob(['\uFEFF', exampleCsv(locale)], { type: 'text/csv;charset=utf-8' }));
  triggerDownload(url, portuguese(locale) ? 'contatos-exemplo.csv' : 'contacts-example.csv');
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

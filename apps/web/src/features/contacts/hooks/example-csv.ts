/**
 * The example import file (product-spec §5): the columns Nome and Número in Portuguese, Name and Number otherwise,
 * generated here so it always matches what the server reads.
 */
import type { Locale } from '@conversa/shared';
import { triggerDownload } from './download';

export function importColumns(locale: Locale): { name: string; number: string } {
  return locale === 'pt' || locale === 'pt-br'
    ? { name: 'Nome', number: 'Número' }
    : { name: 'Name', number: 'Number' };
}

export function exampleCsv(locale: Locale): string {
  const { name, number } = importColumns(locale);
  return [`${name},${number}`, 'Maria Silva,5511912345678', 'João Pereira,351912345678', ''].join('\r\n');
}

export function downloadExampleCsv(locale: Locale): void {
  const url = URL.createObjectURL(new Blob([exampleCsv(locale)], { type: 'text/csv;charset=utf-8' }));
  triggerDownload(url, locale === 'pt' || locale === 'pt-br' ? 'contatos-exemplo.csv' : 'contacts-example.csv');
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Reads an import file into rows: CSV (header row, ',' or ';' found from the header, UTF-8 or Windows-1252) or XLSX
 * (first sheet, header row). Columns are found by name, case- and accent-insensitively: Name/Nome and
 * Number/Número are required; Email/E-mail, CPF and Birthday/Aniversário are read when present.
 */
import fs from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import {
  assertZipWithinLimit,
  IMPORT_MAX_ROWS,
  ImportFileError,
  ImportTooLargeError,
} from './contacts.import.limits.js';

export interface ImportRow {
  /** 1-based row of the sheet (the header is row 1). */
  row: number;
  name: string;
  number: string;
  email: string;
  cpf: string;
  /** Text as written, or a date when the spreadsheet stored one. */
  birthday: string | Date;
}

export { ImportFileError, ImportTooLargeError } from './contacts.import.limits.js';

type Column = 'name' | 'number' | 'email' | 'cpf' | 'birthday';
const HEADERS: Record<string, Column> = {
  name: 'name',
  nome: 'name',
  number: 'number',
  numero: 'number',
  phone: 'number',
  telefone: 'number',
  celular: 'number',
  whatsapp: 'number',
  email: 'email',
  cpf: 'cpf',
  cnpj: 'cpf',
  cpfcnpj: 'cpf',
  birthday: 'birthday',
  birthdaydate: 'birthday',
  aniversario: 'birthday',
  nascimento: 'birthday',
  datadenascimento: 'birthday',
};
const headerKey = (value: string): string =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export const isZip = (head: Buffer): boolean => head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));

export async function readImportRows(file: string): Promise<ImportRow[]> {
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  try {
    if (!isZip(head)) return await readCsv(file);
    await assertZipWithinLimit(file);
    return await readXlsx(file);
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError((error as Error).message);
  }
}

function columnsOf(header: unknown[]): Map<Column, number> {
  const columns = new Map<Column, number>();
  header.forEach((cell, index) => {
    const column = HEADERS[headerKey(cellText(cell))];
    if (column && !columns.has(column)) columns.set(column, index);
  });
  if (!columns.has('name') || !columns.has('number')) throw new ImportFileError('Name and Number columns needed');
  return columns;
}

function toRow(row: number, cells: unknown[], columns: Map<Column, number>): ImportRow {
  const at = (column: Column) => {
    const index = columns.get(column);
    return index === undefined ? undefined : cells[index];
  };
  const birthday = at('birthday');
  return {
    row,
    name: cellText(at('name')),
    number: cellText(at('number')),
    email: cellText(at('email')),
    cpf: cellText(at('cpf')),
    birthday: birthday instanceof Date ? birthday : cellText(birthday),
  };
}

/** The text of a CSV field or an exceljs cell value (rich text, hyperlink, formula result). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const cell = value as { richText?: { text: string }[]; text?: unknown; result?: unknown };
    if (cell.richText)
      return cell.richText
        .map((part) => part.text)
        .join('')
        .trim();
    if (cell.text !== undefined) return cellText(cell.text);
    if (cell.result !== undefined) return cellText(cell.result);
    return '';
  }
  return String(value as string | number | boolean).trim();
}

async function readCsv(file: string): Promise<ImportRow[]> {
  const text = decode(await fs.readFile(file));
  if (text.includes('\0')) throw new ImportFileError('not a text file');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = count(firstLine, ';') > count(firstLine, ',') ? ';' : ',';
  const records = parse(text, {
    bom: true,
    delimiter,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  }) as unknown as { record: string[]; info: { lines: number } }[];
  const [header, ...body] = records;
  if (!header) throw new ImportFileError('empty file');
  const columns = columnsOf(header.record);
  const filled = body.filter(({ record }) => record.some((cell) => cell.trim() !== ''));
  if (filled.length > IMPORT_MAX_ROWS) throw new ImportTooLargeError(`more than ${IMPORT_MAX_ROWS} rows`);
  return filled.map(({ record, info }) => toRow(info.lines, record, columns));
}

const count = (text: string, char: string): number => text.split(char).length - 1;

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what Excel writes for "CSV" on Brazilian Windows). */
function decode(buffer: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return new TextDecoder('windows-1252').decode(buffer);
  }
}

async function readXlsx(file: string): Promise<ImportRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const rows: ImportRow[] = [];
  for await (const sheet of reader) {
    let columns: Map<Column, number> | undefined;
    for await (const row of sheet) {
      // exceljs row values are 1-based and sparse.
      const cells = Array.from(
        { length: Math.max(0, (row.values as unknown[]).length - 1) },
        (_, i) => (row.values as unknown[])[i + 1],
      );
      if (!columns) {
        columns = columnsOf(cells);
        continue;
      }
      if (cells.some((cell) => cellText(cell) !== '')) rows.push(toRow(row.number, cells, columns));
      if (rows.length > IMPORT_MAX_ROWS) throw new ImportTooLargeError(`more than ${IMPORT_MAX_ROWS} rows`);
    }
    if (!columns) throw new ImportFileError('empty sheet');
    return rows; // the first sheet only
  }
  throw new ImportFileError('no sheet');
}

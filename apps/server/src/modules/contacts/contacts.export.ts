/**
 * Contact export: the tenant's contacts written page by page to DATA_DIR/exports/<uuid>.<csv|xlsx>, downloaded
 * through a signed link that lives 10 minutes (the download route is public: the link is the credential).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { exportPage, type ExportRow } from './contacts.bulk.repository.js';

export type ExportFormat = 'csv' | 'xlsx';
const PAGE_SIZE = 1000;
export const EXPORT_LINK_TTL_SECONDS = 10 * 60;
const HEADER = ['Nome', 'Número', 'Email', 'CPF', 'Aniversário', 'Etiquetas', 'Informações adicionais'];
const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const claimsSchema = z.object({
  file: z.string().regex(/^[0-9a-f-]{36}\.(csv|xlsx)$/),
  tenantId: z.number().int().positive(),
  exp: z.number().int(),
});
export type DownloadClaims = z.infer<typeof claimsSchema>;

const hmac = (secret: string, data: string): Buffer =>
  crypto.createHmac('sha256', secret).update(`contacts-export.${data}`).digest();

export function signDownloadToken(secret: string, claims: DownloadClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${hmac(secret, body).toString('base64url')}`;
}

/** The claims of a genuine, unexpired token; undefined otherwise. */
export function verifyDownloadToken(secret: string, token: string): DownloadClaims | undefined {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = hmac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
  try {
    const claims = claimsSchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    return claims.exp * 1000 > Date.now() ? claims : undefined;
  } catch {
    return undefined;
  }
}

/** DD/MM/YYYY, as the spec's contact screens write dates. */
const brazilianDate = (iso: string | null): string => (iso ? iso.split('-').reverse().join('/') : '');

function cells(row: ExportRow): string[] {
  const extra = row.extraInfo.length > 0 ? JSON.stringify(row.extraInfo) : '';
  return [row.name, row.number ?? '', row.email, row.cpf ?? '', brazilianDate(row.birthdayDate), row.tags, extra];
}

/** A CSV field: quoted when needed; a leading = + - @ is neutralised so spreadsheets do not run it as a formula. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export interface ExportServiceDeps {
  db: Database;
  exportsDir: string;
  secret: string;
  /** The server's public address (PUBLIC_URL, no trailing slash): `downloadLink` is absolute (client-contract §6). */
  publicUrl: string;
}

export function createExportService(deps: ExportServiceDeps) {
  async function* pages(ctx: TenantContext): AsyncGenerator<ExportRow[]> {
    let afterId = 0;
    for (;;) {
      const rows = await withTenant(deps.db, ctx, (tx) => exportPage(tx, ctx.tenantId, afterId, PAGE_SIZE));
      if (rows.length === 0) return;
      yield rows;
      afterId = rows.at(-1)!.id;
    }
  }

  async function writeCsv(ctx: TenantContext, file: string): Promise<void> {
    const out = fs.createWriteStream(file);
    // A BOM and ';' let Excel in Brazilian locales open the file with accents and columns right.
    const write = async (line: string[]) => {
      if (!out.write(`${line.map(csvField).join(';')}\r\n`)) await once(out, 'drain');
    };
    try {
      out.write('\ufeff');
      await write(HEADER);
      for await (const rows of pages(ctx)) for (const row of rows) await write(cells(row));
    } finally {
      out.end();
      await once(out, 'close');
    }
  }

  async function writeXlsx(ctx: TenantContext, file: string): Promise<void> {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false });
    const sheet = workbook.addWorksheet('Contatos');
    sheet.addRow(HEADER).commit();
    for await (const rows of pages(ctx)) for (const row of rows) sheet.addRow(cells(row)).commit();
    sheet.commit();
    await workbook.commit();
  }

  return {
    async exportContacts(ctx: TenantContext, format: ExportFormat): Promise<{ downloadLink: string }> {
      fs.mkdirSync(deps.exportsDir, { recursive: true });
      const name = `${crypto.randomUUID()}.${format}`;
      const file = path.join(deps.exportsDir, name);
      try {
        await (format === 'csv' ? writeCsv(ctx, file) : writeXlsx(ctx, file));
      } catch (error) {
        fs.rmSync(file, { force: true });
        throw error;
      }
      const exp = Math.floor(Date.now() / 1000) + EXPORT_LINK_TTL_SECONDS;
      const token = signDownloadToken(deps.secret, { file: name, tenantId: ctx.tenantId, exp });
      return { downloadLink: `${deps.publicUrl}/api/contacts/export/${token}` };
    },

    /** The file a download link points to; 404 ERR_NOT_FOUND for a forged, expired or spent link. */
    openDownload(token: string): { stream: fs.ReadStream; filename: string; contentType: string } {
      const claims = verifyDownloadToken(deps.secret, token);
      const file = claims && path.join(deps.exportsDir, claims.file);
      if (!claims || !file || !fs.existsSync(file)) throw fail('ERR_NOT_FOUND');
      const format = path.extname(claims.file).slice(1) as ExportFormat;
      return { stream: fs.createReadStream(file), filename: `contatos.${format}`, contentType: CONTENT_TYPES[format] };
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;

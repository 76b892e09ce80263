/**
 * The campaign report (issue 25): the campaign as the list shows it, its counts (countsOf) and each recipient's
 * state, capped at CAMPAIGN_REPORT_MAX_RECIPIENTS; and the export of every recipient as CSV or XLSX, streamed to the
 * response one page (one tenant transaction) at a time, so a campaign of any size is never held in memory whole.
 */
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  CAMPAIGN_REPORT_MAX_RECIPIENTS,
  errorCatalogue,
  isErrorCode,
  toWallClock,
  type CampaignReport,
  type CampaignReportFormat,
  type CampaignReportState,
} from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { toCampaignDto } from './campaigns.dto.js';
import { reportPage, tenantTimeZone, type ReportRow } from './campaigns.report.repository.js';
import { countsOf, findCampaign, ZERO_COUNTS } from './campaigns.repository.js';

const EXPORT_PAGE_SIZE = 1000;
const HEADER = ['Nome', 'Número', 'Estado', 'Motivo', 'Mensagem', 'Enviada em'];
const STATE_LABELS: Record<CampaignReportState, string> = {
  pending: 'Aguardando envio',
  sent: 'Enviada',
  delivered: 'Entregue',
  read: 'Lida',
  failed: 'Falhou',
  skipped: 'Ignorada',
};
const CONTENT_TYPES: Record<CampaignReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `dd/MM/yyyy HH:mm` on the company's clock, as the screens write dates. */
function localTime(date: Date | null, timeZone: string): string {
  if (!date) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2})$/.exec(toWallClock(date, timeZone));
  return match ? `${match[3]}/${match[2]}/${match[1]} ${match[4]}` : date.toISOString();
}

/** A catalogue code in words (the file is read by people); a send-error code or a provider's text as it is. */
const reasonText = (reason: string | null): string =>
  reason && isErrorCode(reason) ? errorCatalogue[reason].ptBR : (reason ?? '');

function cells(row: ReportRow, timeZone: string): string[] {
  return [
    row.name,
    row.number ?? '',
    STATE_LABELS[row.state],
    reasonText(row.reason),
    row.messageRandom === null ? '' : String(row.messageRandom),
    localTime(row.sentAt, timeZone),
  ];
}

/**
 * A CSV field (';' separated, as the contacts export): a leading = + - @ tab or CR is neutralised so spreadsheets do
 * not run it as a formula; quoted when it holds a separator, a quote or a line break.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";,\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
const csvLine = (values: string[]) => `${values.map(csvField).join(';')}\r\n`;

export interface ReportExport {
  filename: string;
  contentType: string;
  stream: Readable;
}

export function createCampaignReportService(deps: { db: Database }) {
  const { db } = deps;

  /** The campaign's row, or 404 ERR_NO_CAMPAIGN_FOUND (another tenant's is invisible under RLS). */
  async function campaignOf(tx: Parameters<typeof findCampaign>[0], id: number) {
    const row = await findCampaign(tx, id);
    if (!row) throw fail('ERR_NO_CAMPAIGN_FOUND');
    return row;
  }

  async function* pages(ctx: AuthedContext, campaignId: number): AsyncGenerator<ReportRow[]> {
    let afterId = 0;
    for (;;) {
      const rows = await withTenant(db, ctx, (tx) => reportPage(tx, campaignId, afterId, EXPORT_PAGE_SIZE));
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < EXPORT_PAGE_SIZE) return;
      afterId = rows.at(-1)!.id;
    }
  }

  async function* csvChunks(ctx: AuthedContext, id: number, timeZone: string): AsyncGenerator<string> {
    // A BOM and ';' let Excel in Brazilian locales open the file with accents and columns right.
    yield `\ufeff${csvLine(HEADER)}`;
    for await (const rows of pages(ctx, id)) yield rows.map((row) => csvLine(cells(row, timeZone))).join('');
  }

  function xlsxStream(ctx: AuthedContext, id: number, timeZone: string): Readable {
    const out = new PassThrough();
    void (async () => {
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: out,
        useStyles: false,
        useSharedStrings: false,
      });
      const sheet = workbook.addWorksheet('Campanha');
      sheet.addRow(HEADER).commit();
      for await (const rows of pages(ctx, id)) {
        for (const row of rows) sheet.addRow(cells(row, timeZone)).commit();
        // The zip writes into `out` without waiting: a slow reader holds the next page back, not the memory.
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      sheet.commit();
      await workbook.commit();
    })().catch((error: unknown) => out.destroy(error as Error));
    return out;
  }

  return {
    async report(ctx: AuthedContext, id: number): Promise<CampaignReport> {
      return withTenant(db, ctx, async (tx) => {
        const row = await campaignOf(tx, id);
        const counts = (await countsOf(tx, [id])).get(id) ?? ZERO_COUNTS;
        const rows = await reportPage(tx, id, 0, CAMPAIGN_REPORT_MAX_RECIPIENTS + 1);
        return {
          campaign: toCampaignDto(row, counts),
          counts,
          recipients: rows.slice(0, CAMPAIGN_REPORT_MAX_RECIPIENTS).map((recipient) => ({
            contactId: recipient.contactId,
            name: recipient.name,
            number: recipient.number,
            state: recipient.state,
            reason: recipient.reason,
            messageRandom: recipient.messageRandom,
            sentAt: recipient.sentAt?.toISOString() ?? null,
          })),
          truncated: rows.length > CAMPAIGN_REPORT_MAX_RECIPIENTS,
          generatedAt: new Date().toISOString(),
        };
      });
    },

    /** Checks the campaign first (a 404 before any byte is sent), then streams every recipient. */
    async exportReport(ctx: AuthedContext, id: number, format: CampaignReportFormat): Promise<ReportExport> {
      const timeZone = await withTenant(db, ctx, async (tx) => {
        await campaignOf(tx, id);
        return tenantTimeZone(tx, ctx.tenantId);
      });
      const stream = format === 'csv' ? Readable.from(csvChunks(ctx, id, timeZone)) : xlsxStream(ctx, id, timeZone);
      return { filename: `campanha-${id}.${format}`, contentType: CONTENT_TYPES[format], stream };
    },
  };
}

export type CampaignReportService = ReturnType<typeof createCampaignReportService>;

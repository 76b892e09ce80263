/**
 * Runs one contact import: read the stored file, check each row with the API's own rules, then create or complete
 * contacts in batches (one transaction each, idempotent), reporting progress to the importing user.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  contactInputSchema,
  type ContactImportProgress,
  type ContactImportRowError,
  type ErrorCode,
} from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { asTenantId, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { AppError } from '../../platform/http/errors.js';
import { upsertImportedContacts, type ImportValues } from './contacts.bulk.repository.js';
import { ImportFileError, readImportRows, type ImportRow } from './contacts.import.parse.js';
import { addContactTags, addContactWallets } from './contacts.repository.js';
import { contactColumns } from './contacts.rules.js';
import './contacts.events.js';

export interface ImportJobPayload {
  tenantId: number;
  userId: number;
  importId: string;
  file: string;
  tags: number[];
  wallets: number[];
}

const BATCH_SIZE = 200;
const PROGRESS_INTERVAL_MS = 250;
const MAX_REPORTED_ERRORS = 200;

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
function checkRow(raw: ImportRow, seen: Set<string>): ImportValues | ContactImportRowError {
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

export async function runImport(
  deps: { db: Database; events: EventBus; importsDir: string },
  payload: ImportJobPayload,
): Promise<void> {
  const ctx: TenantContext = { tenantId: asTenantId(payload.tenantId), userId: payload.userId, profile: null };
  const file = path.join(deps.importsDir, payload.file);
  const progress: ContactImportProgress = {
    action: 'progress',
    importId: payload.importId,
    total: 0,
    processed: 0,
    created: 0,
    updated: 0,
    failed: 0,
  };
  const errors: ContactImportRowError[] = [];
  const report = (action: ContactImportProgress['action'], withErrors = false) =>
    deps.events.publish('contacts.import_progressed', {
      tenantId: payload.tenantId,
      userId: payload.userId,
      progress: { ...progress, action, ...(withErrors ? { errors: errors.slice(0, MAX_REPORTED_ERRORS) } : {}) },
    });

  let rows: ImportRow[];
  try {
    rows = await readImportRows(file);
  } catch (error) {
    // An unreadable file will not get better with a retry: report it and drop the file.
    if (!(error instanceof ImportFileError) && (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    errors.push({ row: 1, reason: 'ERR_VALIDATION', value: (error as Error).message.slice(0, 100) });
    report('failed', true);
    await fs.rm(file, { force: true });
    return;
  }
  progress.total = rows.length;
  report('progress');

  const seen = new Set<string>();
  let lastReport = Date.now();
  try {
    for (let start = 0; start < rows.length; start += BATCH_SIZE) {
      const batch: ImportValues[] = [];
      for (const raw of rows.slice(start, start + BATCH_SIZE)) {
        const checked = checkRow(raw, seen);
        if ('reason' in checked) {
          progress.failed += 1;
          errors.push(checked);
          continue;
        }
        batch.push(checked);
      }
      const saved = batch.length === 0 ? [] : await saveBatch(deps.db, ctx, batch, payload);
      const created = saved.filter((r) => r.inserted).length;
      progress.created += created;
      progress.updated += saved.length - created;
      progress.processed = Math.min(rows.length, start + BATCH_SIZE);
      if (Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
        report('progress');
        lastReport = Date.now();
      }
    }
  } catch (error) {
    // The job is retried (the upsert makes that safe); the user learns this attempt stopped.
    report('failed', true);
    throw error;
  }
  progress.processed = rows.length;
  report('done', true);
  await fs.rm(file, { force: true });
}

/** One transaction: the contacts of the batch, then the import's tags and wallets on each of them. */
function saveBatch(db: Database, ctx: TenantContext, batch: ImportValues[], payload: ImportJobPayload) {
  return withTenant(db, ctx, async (tx) => {
    const result = await upsertImportedContacts(tx, ctx.tenantId, batch);
    const ids = result.map((r) => r.id);
    await addContactTags(tx, ctx.tenantId, ids, payload.tags);
    await addContactWallets(tx, ctx.tenantId, ids, payload.wallets);
    return result;
  });
}

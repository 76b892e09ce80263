/**
 * Runs one contact import: read the stored file, check each row with the API's own rules, then create or complete
 * contacts in batches (one transaction each, idempotent), reporting progress to the importing user.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContactImportProgress, ContactImportRowError } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { asTenantId, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { upsertImportedContacts, type ImportValues } from './contacts.bulk.repository.js';
import { ImportFileError, readImportRows, type ImportRow } from './contacts.import.parse.js';
import { checkRow } from './contacts.import.rows.js';
import { addContactTags, addContactWallets } from './contacts.repository.js';
import './contacts.events.js';

export interface ImportJobPayload {
  tenantId: number;
  userId: number;
  importId: string;
  file: string;
  tags: number[];
  wallets: number[];
}

interface ImportDeps {
  db: Database;
  events: EventBus;
  importsDir: string;
}

const BATCH_SIZE = 200;
const PROGRESS_INTERVAL_MS = 250;
const MAX_REPORTED_ERRORS = 200;

/** The import's counters and bad rows, and how they reach the importing user. */
function createReporter(events: EventBus, payload: ImportJobPayload) {
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
  let lastSent = 0;
  const send = (action: ContactImportProgress['action']) => {
    lastSent = Date.now();
    const final = action !== 'progress';
    events.publish('contacts.import_progressed', {
      tenantId: payload.tenantId,
      userId: payload.userId,
      progress: { ...progress, action, ...(final ? { errors: errors.slice(0, MAX_REPORTED_ERRORS) } : {}) },
    });
  };
  return {
    progress,
    refuse(error: ContactImportRowError) {
      progress.failed += 1;
      errors.push(error);
    },
    send,
    /** The file itself could not be read: `failed`, with the reason as the error of row 1 (the header). */
    unreadable(reason: string) {
      errors.push({ row: 1, reason: 'ERR_VALIDATION', value: reason.slice(0, 100) });
      send('failed');
    },
    /** A progress event, unless one left less than 250 ms ago. */
    tick() {
      if (Date.now() - lastSent >= PROGRESS_INTERVAL_MS) send('progress');
    },
  };
}
type Reporter = ReturnType<typeof createReporter>;

export async function runImport(deps: ImportDeps, payload: ImportJobPayload): Promise<void> {
  const file = path.join(deps.importsDir, payload.file);
  const reporter = createReporter(deps.events, payload);
  const rows = await readRows(file, reporter);
  if (!rows) return;
  reporter.progress.total = rows.length;
  reporter.send('progress');
  try {
    await importRows(deps, payload, rows, reporter);
  } catch (error) {
    // The job is retried (the upsert makes that safe); the user learns this attempt stopped.
    reporter.send('failed');
    throw error;
  }
  reporter.send('done');
  await fs.rm(file, { force: true });
}

/** The file's rows; undefined (after reporting `failed` and dropping the file) when it cannot be read. */
async function readRows(file: string, reporter: Reporter): Promise<ImportRow[] | undefined> {
  try {
    return await readImportRows(file);
  } catch (error) {
    // An unreadable file will not get better with a retry.
    if (!(error instanceof ImportFileError) && (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    reporter.unreadable((error as Error).message);
    await fs.rm(file, { force: true });
    return undefined;
  }
}

async function importRows(deps: ImportDeps, payload: ImportJobPayload, rows: ImportRow[], reporter: Reporter) {
  const ctx: TenantContext = { tenantId: asTenantId(payload.tenantId), userId: payload.userId, profile: null };
  const { progress } = reporter;
  const seen = new Set<string>();
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    const batch: ImportValues[] = [];
    for (const raw of rows.slice(start, start + BATCH_SIZE)) {
      const checked = checkRow(raw, seen);
      if ('reason' in checked) reporter.refuse(checked);
      else batch.push(checked);
    }
    const saved = batch.length === 0 ? [] : await saveBatch(deps.db, ctx, batch, payload);
    const created = saved.filter((r) => r.inserted).length;
    progress.created += created;
    progress.updated += saved.length - created;
    progress.processed = Math.min(rows.length, start + BATCH_SIZE);
    reporter.tick();
  }
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

/** Starting an import: check the stored upload's type, the tags and wallets, then enqueue the job in a transaction. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/queue.js';
import type { ImportJobPayload } from './contacts.import.js';
import { ImportTooLargeError, isZip, readImportRows } from './contacts.import.parse.js';
import { fail } from '../../platform/http/errors.js';
import { assertTenantSets } from './contacts.service.js';
import { FileTypeRejectedError } from '../../platform/http/multipart.js';
import type { ContactUploadFields, StoredUpload } from './contacts.upload.js';

const SNIFF_BYTES = 8192;

/** .xlsx must be a zip ('PK'); .csv must be text (not a zip, no NUL byte in its first 8 KB). Anything else: no. */
export async function assertImportFileType(upload: StoredUpload): Promise<void> {
  const extension = path.extname(upload.filename).toLowerCase();
  const handle = await fs.open(upload.path, 'r');
  const head = Buffer.alloc(SNIFF_BYTES);
  let read: number;
  try {
    ({ bytesRead: read } = await handle.read(head, 0, SNIFF_BYTES, 0));
  } finally {
    await handle.close();
  }
  const start = head.subarray(0, read);
  const ok =
    read > 0 &&
    ((extension === '.xlsx' && isZip(start)) || (extension === '.csv' && !isZip(start) && !start.includes(0)));
  if (!ok) throw new FileTypeRejectedError('file');
}

/**
 * Reads the file once at upload so a decompression bomb or too many rows answer 413 at once instead of failing in
 * the job; any other reading problem is left to the job, which reports it on the importing user's socket.
 */
export async function assertImportWithinLimits(upload: StoredUpload): Promise<void> {
  try {
    await readImportRows(upload.path);
  } catch (error) {
    if (error instanceof ImportTooLargeError) throw fail('ERR_PAYLOAD_TOO_LARGE', 'file');
  }
}

export function createImportService(deps: {
  db: Database;
  jobs: JobQueue;
  importJob: JobDefinition<ImportJobPayload>;
}) {
  return {
    async startImport(
      ctx: TenantContext & { userId: number },
      upload: StoredUpload,
      fields: ContactUploadFields,
    ): Promise<{ importId: string }> {
      try {
        await assertImportFileType(upload);
        await assertImportWithinLimits(upload);
        await withTenant(deps.db, ctx, async (tx) => {
          await assertTenantSets(tx, ctx, fields);
          const payload: ImportJobPayload = {
            tenantId: ctx.tenantId,
            userId: ctx.userId,
            importId: upload.id,
            file: upload.id,
            tags: [...new Set(fields.tags)],
            wallets: [...new Set(fields.wallets)],
          };
          await deps.jobs.enqueue(deps.importJob, payload, { tx });
        });
      } catch (error) {
        await fs.rm(upload.path, { force: true });
        throw error;
      }
      return { importId: upload.id };
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;

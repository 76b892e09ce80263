/** Contacts jobs: the import of an uploaded file, and the hourly sweep of stale import and export files. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/queue.js';
import { runImport, type ImportJobPayload } from './contacts.import.js';

export const IMPORT_CONTACTS_JOB = 'contacts.import';
export const CLEANUP_CONTACT_FILES_JOB = 'contacts.cleanup-files';

const ids = z.array(z.number().int().positive()).max(500).default([]);
export const importPayloadSchema = z.object({
  tenantId: z.number().int().positive(),
  userId: z.number().int().positive(),
  importId: z.uuid(),
  /** The stored file's name under DATA_DIR/imports (a uuid, so a payload cannot point elsewhere). */
  file: z.uuid(),
  tags: ids,
  wallets: ids,
});

const cleanupPayloadSchema = z.object({});
type CleanupPayload = z.infer<typeof cleanupPayloadSchema>;

/** Export links live 10 minutes; an import file is deleted by its job, so an old one was left by a failed job. */
const EXPORT_MAX_AGE_MS = 60 * 60 * 1000;
const IMPORT_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

export interface ContactsJobs {
  importContacts: JobDefinition<ImportJobPayload>;
  cleanupFiles: JobDefinition<CleanupPayload>;
}

export function createContactsJobs(deps: {
  db: Database;
  events: EventBus;
  importsDir: string;
  exportsDir: string;
}): ContactsJobs {
  const importContacts = defineJob<ImportJobPayload>({
    name: IMPORT_CONTACTS_JOB,
    schema: importPayloadSchema,
    retryLimit: 2,
    retryDelaySeconds: 30,
    batchSize: 1,
    handler: (payload) => runImport(deps, payload),
  });

  const cleanupFiles = defineJob<CleanupPayload>({
    name: CLEANUP_CONTACT_FILES_JOB,
    schema: cleanupPayloadSchema,
    cron: '40 * * * *',
    retryLimit: 1,
    async handler() {
      await removeOlderThan(deps.exportsDir, EXPORT_MAX_AGE_MS);
      await removeOlderThan(deps.importsDir, IMPORT_MAX_AGE_MS);
    },
  });

  return { importContacts, cleanupFiles };
}

export async function removeOlderThan(dir: string, maxAgeMs: number): Promise<number> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat?.isFile() && Date.now() - stat.mtimeMs > maxAgeMs) {
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

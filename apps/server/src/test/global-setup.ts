/**
 * Builds one migrated, seeded database per run: a PGlite data-dir dump, or (with TEST_DATABASE_URL) a PostgreSQL
 * template database. Each test file then starts from a copy in about half a second.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';
import { createJobQueue } from '../platform/jobs/queue.js';
import { loadConfig } from '../config.js';
import { bootstrapInstallation } from '../bootstrap.js';
import { SEED_EMAIL, SEED_PASSWORD, adminDatabaseUrl, templateDatabaseUrl } from './seed.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

async function seed(url: string | undefined, pglite?: PGlite) {
  const database = await openDatabase(pglite ? { pglite } : { url: url! });
  await migrateDatabase(database);
  const config = loadConfig({ SEED_SUPERADMIN_EMAIL: SEED_EMAIL, SEED_SUPERADMIN_PASSWORD: SEED_PASSWORD });
  await bootstrapInstallation(database.db, config, pino({ level: 'silent' }));
  // pg-boss creates its schema on first start: do it once in the template too.
  const jobs = createJobQueue(database, pino({ level: 'silent' }));
  await jobs.start([], false);
  await jobs.stop();
  return database;
}

export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const template = templateDatabaseUrl(base);
    const admin = new pg.Client({ connectionString: adminDatabaseUrl(base) });
    await admin.connect();
    const name = new URL(template).pathname.slice(1);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    const database = await seed(template);
    await database.close();
    await admin.end();
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplate', '');
    return;
  }
  const pglite = await PGlite.create();
  await seed(undefined, pglite);
  const dump = await pglite.dumpDataDir('none');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-test-')), 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
}

/**
 * Route-test harness: a fresh database copied from the run's template, the real app built on it, factories for
 * tenants and users, and a mailer that records what it sends.
 */
import type { LightMyRequestResponse } from 'fastify';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pino } from 'pino';
import { inject } from 'vitest';
import type { Profile } from '@conversa/shared';
import { buildApp, type AppDeps, type BuiltApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../platform/db/client.js';
import { withSystem } from '../platform/db/tenancy.js';
import { createJobQueue, type JobQueue } from '../platform/jobs/queue.js';
import { hashPassword } from '../platform/crypto.js';
import type { Mailer, MailMessage } from '../integrations/smtp/mailer.js';
import { tenants } from '../modules/tenants/tenants.tables.js';
import { users, userTenants } from '../modules/users/users.tables.js';
import { refreshTokens } from '../modules/auth/auth.tables.js';
import { insertDefaultSettings } from '../modules/settings/index.js';
import type { AdapterLookup } from '../modules/messages/index.js';
import { SEED_EMAIL, SEED_PASSWORD, adminDatabaseUrl } from './seed.js';

export interface TestUser {
  id: number;
  tenantId: number;
  /** The login session (refresh-token family) the token belongs to. */
  sessionId: string;
  email: string;
  password: string;
  profile: Profile;
  token: string;
  auth: { authorization: string };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TestApp extends BuiltApp {
  database: DatabaseHandle;
  /** The PostgreSQL URL of this test database (undefined on PGlite). */
  databaseUrl: string | undefined;
  jobs: JobQueue;
  sent: MailMessage[];
  dataDir: string;
  seed: { email: string; password: string };
  createTenant(values?: Partial<typeof tenants.$inferInsert>): Promise<number>;
  /** `session: false` leaves out the login session (tests that count refresh tokens). */
  createUser(options: {
    tenantId: number;
    profile?: Profile;
    password?: string;
    name?: string;
    session?: boolean;
  }): Promise<TestUser>;
  /** An admin, an agent and a supervisor of one tenant (tenant 1 by default). */
  createStaff(tenantId?: number): Promise<{ admin: TestUser; agent: TestUser; supervisor: TestUser }>;
  /** An API call as that user: the path is relative to /api. */
  call(user: TestUser, method: HttpMethod, path: string, payload?: object): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

async function openTestDatabase(): Promise<{ handle: DatabaseHandle; url?: string; drop: () => Promise<void> }> {
  const template = inject('postgresTemplate');
  if (template) {
    const name = `conversa_t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminDatabaseUrl(process.env.TEST_DATABASE_URL!) });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${new URL(template).pathname.slice(1)}"`);
    await admin.end();
    const url = new URL(template);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ url: url.toString(), poolSize: 5 });
    return {
      handle,
      url: url.toString(),
      drop: async () => {
        const client = new pg.Client({ connectionString: adminDatabaseUrl(process.env.TEST_DATABASE_URL!) });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const dump = fs.readFileSync(inject('pgliteTemplate'));
  const pglite = await PGlite.create({ loadDataDir: new Blob([dump]) });
  return { handle: await openDatabase({ pglite }), drop: async () => undefined };
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    peerOf?: TestApp;
    ticketMessaging?: AppDeps['ticketMessaging'];
    adapters?: AdapterLookup;
    sessionDrivers?: AppDeps['sessionDrivers'];
  } = {},
): Promise<TestApp> {
  // A peer is a second node on the same PostgreSQL database (cluster tests).
  const peerUrl = options.peerOf?.databaseUrl;
  const { handle, drop, url } = peerUrl
    ? { handle: await openDatabase({ url: peerUrl, poolSize: 5 }), drop: async () => undefined, url: peerUrl }
    : await openTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOGIN_CAPTCHA: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // The simulators and test servers listen on loopback; an SSRF test passes OUTBOUND_ALLOW: '' to refuse it.
    OUTBOUND_ALLOW: '127.0.0.0/8,::1',
    ...(url ? { DATABASE_URL: url } : {}),
    ...env,
  });
  const logger = pino({ level: config.logLevel });
  const jobs = createJobQueue(handle, logger);
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    send: async (message) => {
      sent.push(message);
    },
  };
  const secrets = options.peerOf?.platform.secrets ?? {
    jwtSecret: crypto.randomBytes(32).toString('hex'),
    captchaSecret: crypto.randomBytes(32).toString('hex'),
    sessionKey: crypto.randomBytes(32).toString('base64url'),
  };
  const built = await buildApp({
    config,
    database: handle,
    jobs,
    secrets,
    mailer,
    logger,
    ...(options.ticketMessaging ? { ticketMessaging: options.ticketMessaging } : {}),
    ...(options.adapters ? { adapters: options.adapters } : {}),
    ...(options.sessionDrivers ? { sessionDrivers: options.sessionDrivers } : {}),
  });
  await jobs.start(built.jobDefinitions, false);
  await built.app.ready();

  const createTenant: TestApp['createTenant'] = async (values = {}) =>
    withSystem(handle.db, 'bootstrap.seed', async (tx) => {
      const [row] = await tx
        .insert(tenants)
        .values({ name: `Tenant ${crypto.randomBytes(3).toString('hex')}`, ...values })
        .returning({ id: tenants.id });
      await insertDefaultSettings(tx, row!.id);
      return row!.id;
    });

  const createUser: TestApp['createUser'] = async ({
    tenantId,
    profile = 'user',
    password = 'Passw0rd!',
    name,
    session = true,
  }) => {
    const email = `${profile}-${crypto.randomBytes(4).toString('hex')}@test.local`;
    const id = await withSystem(handle.db, 'bootstrap.seed', async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          tenantId,
          email,
          name: name ?? `${profile} user`,
          profile,
          passwordHash: await hashPassword(password),
        })
        .returning({ id: users.id });
      await tx.insert(userTenants).values({ tenantId, userId: row!.id });
      return row!.id;
    });
    // A login session like the login's (a refresh-token family): sockets are accepted only for a live session.
    const sessionId = crypto.randomUUID();
    if (session)
      await withSystem(handle.db, 'bootstrap.seed', (tx) =>
        tx.insert(refreshTokens).values({
          tenantId,
          userId: id,
          tokenHash: crypto.randomBytes(32).toString('hex'),
          familyId: sessionId,
          expiresAt: new Date(Date.now() + config.refreshTokenTtl * 1000),
        }),
      );
    const token = await built.platform.tokens.signAccess({ userId: id, tenantId, profile, tokenVersion: 0, sessionId });
    return { id, tenantId, sessionId, email, password, profile, token, auth: { authorization: `Bearer ${token}` } };
  };

  const createStaff: TestApp['createStaff'] = async (tenantId = 1) => ({
    admin: await createUser({ tenantId, profile: 'admin', name: 'Ana Admin' }),
    agent: await createUser({ tenantId, profile: 'user', name: 'Zé Agente' }),
    supervisor: await createUser({ tenantId, profile: 'super', name: 'Sofia Super' }),
  });

  const call: TestApp['call'] = (user, method, path, payload) =>
    built.app.inject({ method, url: `/api${path}`, headers: user.auth, ...(payload === undefined ? {} : { payload }) });

  return {
    ...built,
    createStaff,
    call,
    database: handle,
    databaseUrl: url,
    jobs,
    sent,
    dataDir,
    seed: { email: SEED_EMAIL, password: SEED_PASSWORD },
    createTenant,
    createUser,
    async close() {
      await built.app.close();
      await jobs.stop();
      await handle.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

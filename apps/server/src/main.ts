/** Process entry: config -> database -> migrations -> seed -> app -> listen -> workers. */
import { pino } from 'pino';
import { loadConfig } from './config.js';
import { logSerializers } from './platform/http/log-redaction.js';
import { buildApp } from './app.js';
import { openDatabase } from './platform/db/client.js';
import { migrateDatabase } from './platform/db/migrate.js';
import { createJobQueue } from './platform/jobs/queue.js';
import { loadSecrets } from './platform/secrets.js';
import { createMailer } from './integrations/smtp/mailer.js';
import { bootstrapInstallation } from './bootstrap.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel, serializers: logSerializers });
  const secrets = loadSecrets(config.dataDir, { jwtSecret: config.jwtSecret, sessionKey: config.sessionEncryptionKey });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  logger.info({ database: database.kind }, 'database opened');
  await migrateDatabase(database);
  await bootstrapInstallation(database.db, config, logger);

  const jobs = createJobQueue(database, logger);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
  const { app, jobDefinitions, startBackground } = await buildApp({ config, database, jobs, secrets, mailer, logger });
  await jobs.start(jobDefinitions, config.workers);
  // Stateful sessions (their leases, their send queues) run only where workers run.
  if (config.workers) await startBackground();
  await app.listen({ port: config.port, host: config.host });
  logger.info(`Conversa is running at ${config.publicUrl}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await app.close();
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

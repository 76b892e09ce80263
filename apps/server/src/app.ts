/**
 * buildApp: platform plugins first (errors, auth, docs), then the modules under /api, then the web app. Tests build
 * it too, with their own database and configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { DatabaseHandle } from './platform/db/client.js';
import { createEventBus } from './platform/events/bus.js';
import { registerAuthentication } from './platform/http/auth.js';
import { registerErrorHandling } from './platform/http/errors.js';
import { createTokenService } from './platform/http/tokens.js';
import type { JobDefinition, JobQueue } from './platform/jobs/queue.js';
import type { Platform } from './platform/platform.js';
import { createRealtime } from './platform/realtime/server.js';
import type { Secrets } from './platform/secrets.js';
import type { Mailer } from './integrations/smtp/mailer.js';
import { modules } from './modules.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  jobs: JobQueue;
  secrets: Secrets;
  mailer: Mailer;
  logger: Logger;
}

export interface BuiltApp {
  app: FastifyInstance;
  platform: Platform;
  jobDefinitions: JobDefinition<never>[];
}

const MAX_BODY_BYTES = 1024 * 1024;

export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  const tokens = createTokenService(deps.secrets.jwtSecret, deps.config.accessTokenTtl);
  const events = createEventBus((error, name) =>
    deps.logger.error({ err: error, event: name }, 'event listener failed'),
  );
  const realtime = createRealtime({
    httpServer: app.server,
    tokens,
    logger: deps.logger,
    adapter: deps.config.realtimeAdapter,
    redisUrl: deps.config.redisUrl,
    pool: deps.database.pool,
  });
  app.addHook('preClose', async () => realtime.close());
  const platform: Platform = {
    config: deps.config,
    database: deps.database,
    db: deps.database.db,
    jobs: deps.jobs,
    events,
    tokens,
    secrets: deps.secrets,
    logger: deps.logger,
    realtime,
  };

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Conversa API', version: '0.1.0' }, servers: [{ url: '/api' }] },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const jobDefinitions: JobDefinition<never>[] = [];
  await app.register(
    async (api) => {
      registerAuthentication(api, tokens);
      api.get('/health', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
      for (const mod of modules) {
        const { plugin, jobs } = mod(platform, deps);
        await api.register(plugin);
        jobDefinitions.push(...(jobs ?? []));
      }
    },
    { prefix: '/api' },
  );

  await registerWeb(app, deps.config.webDist);
  return { app, platform, jobDefinitions };
}

async function registerWeb(app: FastifyInstance, configured: string | undefined): Promise<void> {
  const root = configured ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  if (!fs.existsSync(path.join(root, 'index.html'))) return;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    setHeaders(res, filePath) {
      // Hashed assets are immutable; index.html and the service worker must be revalidated to see new versions.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

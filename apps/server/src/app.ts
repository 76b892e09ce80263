/**
 * buildApp: platform plugins first (errors, auth, docs), then the modules under /api, then the web app. Tests build
 * it too, with their own database and configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import querystring from 'node:querystring';
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
import { registerJsonBodies } from './platform/http/json-body.js';
import { registerCors } from './platform/http/cors.js';
import { logSerializers } from './platform/http/log-redaction.js';
import { docsContentSecurityPolicy, registerSecurityHeaders } from './platform/http/security.js';
import { createTokenService } from './platform/http/tokens.js';
import type { JobDefinition, JobQueue } from './platform/jobs/queue.js';
import type { Platform } from './platform/platform.js';
import { createRealtime } from './platform/realtime/server.js';
import type { Secrets } from './platform/secrets.js';
import type { Mailer } from './integrations/smtp/mailer.js';
import type { ModuleRegistration } from './kernel/module.js';
import { appModules, type ModuleOverrides } from './modules.js';

export interface AppDeps extends ModuleOverrides {
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
  /** Every route the app serves (HEAD twins left out): the isolation suite walks it, so no route is forgotten. */
  routes: { method: string; url: string }[];
  /** Starts the modules' background work (nodes with workers on, after the job workers); closing the app stops it. */
  startBackground(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_HEADER_BYTES = 128 * 1024;

/**
 * Node's query parser, with `key[]` read as `key` (clients send arrays as `status[]=open&status[]=pending`,
 * client-contract §21.3); other bracketed keys (`contact[name]`) stay as they are.
 */
export function parseQuery(query: string): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(querystring.parse(query))) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const previous = parsed[name];
    parsed[name] = previous === undefined ? value : ([] as unknown[]).concat(previous, value);
  }
  return parsed;
}

export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  // Every line goes through the redacting serializers whatever logger the caller built (tests build their own).
  const logger: Logger = deps.logger.child({}, { serializers: logSerializers });
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500, querystringParser: parseQuery },
    // Clients send a whole ticket as the query string of GET /tickets/{id} (client-contract §21.12): 32 KiB and more.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
  });
  const routes: BuiltApp['routes'] = [];
  app.addHook('onRoute', (route) => {
    // HEAD twins and the CORS preflight catch-all are not routes of their own.
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonBodies(app);

  const tokens = createTokenService(deps.secrets.jwtSecret, deps.config.accessTokenTtl);
  const events = createEventBus((error, name) => logger.error({ err: error, event: name }, 'event listener failed'));
  const realtime = createRealtime({
    httpServer: app.server,
    tokens,
    logger,
    adapter: deps.config.realtimeAdapter,
    redisUrl: deps.config.redisUrl,
    pool: deps.database.pool,
    cors: { publicUrl: deps.config.publicUrl, origins: deps.config.corsOrigins },
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
    logger,
    realtime,
  };

  const security = { publicUrl: deps.config.publicUrl, corsOrigins: deps.config.corsOrigins };
  await registerSecurityHeaders(app, security);
  await registerCors(app, deps.config.corsOrigins);
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Conversa API', version: '0.1.0' }, servers: [{ url: '/api' }] },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: docsContentSecurityPolicy(security) });

  const jobDefinitions: JobDefinition<never>[] = [];
  const background: Pick<ModuleRegistration, 'start' | 'stop'>[] = [];
  await app.register(
    async (api) => {
      registerAuthentication(api, tokens);
      api.get('/health', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
      for (const mod of appModules(deps)) {
        const { plugin, jobs, start, stop } = mod(platform, { mailer: deps.mailer });
        await api.register(plugin);
        jobDefinitions.push(...(jobs ?? []));
        if (start || stop) background.push({ start, stop });
      }
    },
    { prefix: '/api' },
  );

  // Before the realtime server closes (preClose runs first, onClose after): sessions close while events still flow.
  app.addHook('preClose', async () => {
    for (const work of [...background].reverse()) await work.stop?.();
  });

  // Quick-message files (client-contract §8) for clients built without the /api prefix: `{URL_API}/public/...`.
  app.get('/public/:tenantId/:media', { schema: { hide: true } }, async (request, reply) =>
    reply.redirect(`/api${request.url}`, 308),
  );
  await registerWeb(app, deps.config.webDist);
  const startBackground = async () => {
    for (const work of background) await work.start?.();
  };
  return { app, platform, jobDefinitions, routes, startBackground };
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

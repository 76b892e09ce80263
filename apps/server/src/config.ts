/** The only reader of process.env: validated once at start, then passed down as a plain object. */
import { z } from 'zod';
import path from 'node:path';
import { MEDIA_MAX_BYTES } from '@conversa/shared';
import { parseOutboundAllow, type OutboundAllowList } from './platform/net/address-policy.js';

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'on', 'off'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1' || v === 'on'));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  REALTIME_ADAPTER: z.enum(['none', 'redis', 'postgres']).optional(),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Conversa <no-reply@localhost>'),
  LOGIN_CAPTCHA: booleanFlag(true),
  /**
   * Which proxies may set X-Forwarded-For: `false` (default: the socket address is the client), `true` (any: only
   * when a proxy strips the header from clients), or Fastify's list form (`loopback`, `10.0.0.0/8,127.0.0.1`).
   * Trusting every sender would let a client pick its own address and escape the per-IP login limit.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' || v === '' ? false : v)),
  JWT_SECRET: z.string().min(32).optional(),
  /** 32 random bytes, base64url (43 characters) or more: the key of stateful sessions' auth state at rest. */
  SESSION_ENCRYPTION_KEY: z.string().min(43).optional(),
  JWT_REFRESH_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  PASSWORD_RESET_TTL: z.coerce.number().int().positive().default(3600),
  SEED_SUPERADMIN_EMAIL: z.string().email().optional(),
  SEED_SUPERADMIN_PASSWORD: z.string().min(8).optional(),
  WEB_DIST: z.string().optional(),
  WORKERS: booleanFlag(true),
  /** Telegram Bot API base URL; tests point it at a local simulator. */
  TELEGRAM_API_ROOT: z.string().url().default('https://api.telegram.org'),
  /** Meta's Graph API (WhatsApp Cloud API, Messenger and Instagram Send API); tests point it at a local simulator. */
  META_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  /**
   * The Meta app of the app-level webhook (`/api/webhooks/meta`): its secret signs the POSTs (a channel's own
   * `metaAppSecret` is accepted too) and META_VERIFY_TOKEN answers Meta's verification GET. Optional: per-channel
   * webhook URLs work without them.
   */
  META_APP_SECRET: z.string().min(1).optional(),
  META_VERIFY_TOKEN: z.string().min(1).optional(),
  /** The NotificaMe hub's API root; tests point it at a local simulator. */
  HUB_API_URL: z.string().url().default('https://hub.notificame.com.br/v1'),
  /**
   * Test hooks, never set in production: BAILEYS_SOCKET_MODULE is the absolute path of a module exporting
   * `makeWASocket` used instead of the baileys library's (the built fake socket,
   * dist/modules/channels/providers/baileys/baileys.fake-socket.js), and BAILEYS_SIMULATOR_URL the Baileys simulator
   * that fake talks to. The second needs the first.
   */
  BAILEYS_SOCKET_MODULE: z
    .string()
    .refine((v) => path.isAbsolute(v), 'must be an absolute path')
    .optional(),
  BAILEYS_SIMULATOR_URL: z.string().url().optional(),
  /** The chromium whatsapp-web.js channels run (Debian's package by default; nothing downloads a browser). */
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  /** S3-compatible media bucket (all of endpoint, bucket, keys); without them media lives under DATA_DIR/media. */
  MEDIA_S3_ENDPOINT: z.string().url().optional(),
  MEDIA_S3_BUCKET: z.string().min(1).optional(),
  MEDIA_S3_REGION: z.string().min(1).default('us-east-1'),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Largest media upload (bytes); never above the product's MEDIA_MAX_BYTES. */
  MEDIA_MAX_UPLOAD_BYTES: z.coerce.number().int().positive().max(MEDIA_MAX_BYTES).default(MEDIA_MAX_BYTES),
  /** Comma list of web origins allowed to call the API and open sockets from another origin; unset = same origin. */
  CORS_ORIGINS: z.string().optional(),
  /**
   * Comma list of host names (`evo.internal`, `*.lan`), IP addresses and CIDR networks (`10.0.0.0/8`, `fd00::/8`)
   * that fetches of tenants' URLs may reach although private (self-hosted gateways), on any port. Unset = public
   * addresses on ports 80/443 only (platform/net).
   */
  OUTBOUND_ALLOW: z.string().optional(),
  /** Media a tenant may store (uploads and provider downloads) unless the superadmin set the tenant's own quota. */
  MEDIA_TENANT_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 ** 3),
  /**
   * Stateful sessions (Baileys, whatsapp-web.js): a node holds a session's lease for SESSION_LEASE_TTL_MS and renews
   * it every SESSION_LEASE_RENEW_MS, so another node takes a dead owner's sessions over within TTL + one renewal;
   * each tick claims at most SESSION_CLAIMS_PER_TICK free sessions (nodes share them out). An action asked for on a
   * node that does not run the session waits SESSION_ACTION_TIMEOUT_MS for its owner.
   */
  SESSION_LEASE_TTL_MS: z.coerce.number().int().min(500).default(20_000),
  SESSION_LEASE_RENEW_MS: z.coerce.number().int().min(100).default(5_000),
  SESSION_CLAIMS_PER_TICK: z.coerce.number().int().min(1).max(1000).default(5),
  SESSION_ACTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof loadConfig>;

/**
 * `CORS_ORIGINS` as exact origins (`scheme://host[:port]`, no path): the browser compares the Origin header as a
 * string, so a path or a trailing slash would silently never match.
 */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins: string[] = [];
  for (const item of (value ?? '').split(',').map((v) => v.trim())) {
    if (!item) continue;
    let url: URL | undefined;
    try {
      url = new URL(item);
    } catch {
      url = undefined;
    }
    const origin = url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined;
    if (!origin || origin !== item.replace(/\/$/, '').toLowerCase()) {
      throw new Error(
        `Invalid configuration: CORS_ORIGINS: "${item}" is not an origin (scheme://host[:port], e.g. https://app.example.com)`,
      );
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.REALTIME_ADAPTER === 'redis' && !e.REDIS_URL)
    throw new Error('Invalid configuration: REALTIME_ADAPTER=redis needs REDIS_URL');
  if (e.REALTIME_ADAPTER === 'postgres' && !e.DATABASE_URL) {
    throw new Error('Invalid configuration: REALTIME_ADAPTER=postgres needs DATABASE_URL');
  }
  const s3Keys = [e.MEDIA_S3_ENDPOINT, e.MEDIA_S3_BUCKET, e.MEDIA_S3_ACCESS_KEY_ID, e.MEDIA_S3_SECRET_ACCESS_KEY];
  if (s3Keys.some(Boolean) && !s3Keys.every(Boolean)) {
    throw new Error(
      'Invalid configuration: MEDIA_S3_ENDPOINT, MEDIA_S3_BUCKET, MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY go together',
    );
  }
  if (e.BAILEYS_SIMULATOR_URL && !e.BAILEYS_SOCKET_MODULE) {
    throw new Error('Invalid configuration: BAILEYS_SIMULATOR_URL needs BAILEYS_SOCKET_MODULE');
  }
  if (e.SESSION_LEASE_RENEW_MS * 2 > e.SESSION_LEASE_TTL_MS) {
    throw new Error('Invalid configuration: SESSION_LEASE_RENEW_MS must be at most half of SESSION_LEASE_TTL_MS');
  }
  const corsOrigins = parseCorsOrigins(e.CORS_ORIGINS);
  let outboundAllow: OutboundAllowList;
  try {
    outboundAllow = parseOutboundAllow(e.OUTBOUND_ALLOW);
  } catch (error) {
    throw new Error(`Invalid configuration: OUTBOUND_ALLOW: ${(error as Error).message}`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    /** How socket.io reaches sockets on other nodes: Redis streams when REDIS_URL is set, else none (one node). */
    realtimeAdapter: e.REALTIME_ADAPTER ?? (e.REDIS_URL ? 'redis' : 'none'),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    loginCaptcha: e.LOGIN_CAPTCHA,
    trustProxy: e.TRUST_PROXY,
    jwtSecret: e.JWT_SECRET,
    sessionEncryptionKey: e.SESSION_ENCRYPTION_KEY,
    jwtRefreshSecret: e.JWT_REFRESH_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    passwordResetTtl: e.PASSWORD_RESET_TTL,
    seedSuperadminEmail: e.SEED_SUPERADMIN_EMAIL,
    seedSuperadminPassword: e.SEED_SUPERADMIN_PASSWORD,
    webDist: e.WEB_DIST,
    workers: e.WORKERS,
    sessions: {
      leaseTtlMs: e.SESSION_LEASE_TTL_MS,
      renewMs: e.SESSION_LEASE_RENEW_MS,
      claimsPerTick: e.SESSION_CLAIMS_PER_TICK,
      actionTimeoutMs: e.SESSION_ACTION_TIMEOUT_MS,
    },
    telegramApiRoot: e.TELEGRAM_API_ROOT.replace(/\/$/, ''),
    metaGraphUrl: e.META_GRAPH_URL.replace(/\/$/, ''),
    metaAppSecret: e.META_APP_SECRET,
    metaVerifyToken: e.META_VERIFY_TOKEN,
    hubApiUrl: e.HUB_API_URL.replace(/\/$/, ''),
    /** Test hooks (see the schema): the Baileys socket module replacing the library's, and its simulator. */
    baileysSocketModule: e.BAILEYS_SOCKET_MODULE,
    baileysSimulatorUrl: e.BAILEYS_SIMULATOR_URL?.replace(/\/$/, ''),
    chromiumPath: e.CHROMIUM_PATH,
    logLevel: e.LOG_LEVEL,
    mediaMaxUploadBytes: e.MEDIA_MAX_UPLOAD_BYTES,
    mediaTenantQuotaBytes: e.MEDIA_TENANT_QUOTA_BYTES,
    /** Web origins allowed to call the API from another origin (REST CORS and the socket.io handshake). */
    corsOrigins,
    /** Hosts and networks a fetch of a tenant's URL may reach although private (OUTBOUND_ALLOW). */
    outboundAllow,
    mediaS3:
      e.MEDIA_S3_ENDPOINT && e.MEDIA_S3_BUCKET && e.MEDIA_S3_ACCESS_KEY_ID && e.MEDIA_S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.MEDIA_S3_ENDPOINT.replace(/\/$/, ''),
            bucket: e.MEDIA_S3_BUCKET,
            region: e.MEDIA_S3_REGION,
            accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID,
            secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY,
          }
        : undefined,
  };
}

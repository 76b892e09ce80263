/** The only reader of process.env: validated once at start, then passed down as a plain object. */
import { z } from 'zod';
import path from 'node:path';

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
  JWT_SECRET: z.string().min(32).optional(),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof loadConfig>;

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
    jwtSecret: e.JWT_SECRET,
    jwtRefreshSecret: e.JWT_REFRESH_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    passwordResetTtl: e.PASSWORD_RESET_TTL,
    seedSuperadminEmail: e.SEED_SUPERADMIN_EMAIL,
    seedSuperadminPassword: e.SEED_SUPERADMIN_PASSWORD,
    webDist: e.WEB_DIST,
    workers: e.WORKERS,
    logLevel: e.LOG_LEVEL,
  };
}

/** The one place that turns failures into the `{ "error": "ERR_..." }` envelope of the spec's catalogue. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorCatalogue, isErrorCode, type ErrorBody, type ErrorCode } from '@conversa/shared';

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly field?: string,
  ) {
    super(code);
    this.status = errorCatalogue[code].status;
  }
}

export const fail = (code: ErrorCode, field?: string): AppError => new AppError(code, field);

/**
 * Text PostgreSQL cannot store: a NUL character (22021) in text, or an unsupported \u escape (22P05) in jsonb. JSON
 * lets a client send "\u0000"; it is the client's input that is refused, never a 500.
 */
const UNSTORABLE_TEXT_ERRORS = new Set(['22021', '22P05']);
/** node-postgres reports a connection lost mid-transaction without a code, only with these messages. */
const PG_CONNECTION_LOST = /^(Connection terminated|Client has encountered a connection error|Client was closed)/;
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001']);

/**
 * The driver's code of a failure: drizzle wraps a failed query in DrizzleQueryError, the pg/PGlite error (with its
 * SQLSTATE or socket code) being its `cause`.
 */
function databaseErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, cause, message } = current as { code?: unknown; cause?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNSTORABLE_TEXT_ERRORS.has(code) || CONNECTION_ERRORS.has(code))) return code;
    if (typeof message === 'string' && PG_CONNECTION_LOST.test(message)) return 'ECONNRESET';
    current = cause;
  }
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => {
    void reply.status(404).send({ error: 'ERR_NOT_FOUND' } satisfies ErrorBody);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorBody = { error: error.code };
      if (error.field) body.field = error.field;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const path = issue?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
      const field = path || (error.validationContext ?? 'body');
      const message = issue?.message;
      const code: ErrorCode = isErrorCode(message) ? message : 'ERR_VALIDATION';
      return reply.status(errorCatalogue[code].status).send({ error: code, field, message } satisfies ErrorBody);
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ error: 'ERR_PAYLOAD_TOO_LARGE' } satisfies ErrorBody);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, wrong content type and the like: the client's fault, never a 5xx.
      const code: ErrorCode = error.statusCode === 429 ? 'ERR_RATE_LIMIT' : 'ERR_VALIDATION';
      return reply.status(error.statusCode).send({ error: code, message: error.message } satisfies ErrorBody);
    }
    const dbCode = databaseErrorCode(error);
    if (dbCode && UNSTORABLE_TEXT_ERRORS.has(dbCode)) {
      return reply.status(400).send({ error: 'ERR_VALIDATION' } satisfies ErrorBody);
    }
    if (dbCode && CONNECTION_ERRORS.has(dbCode)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send({ error: 'ERR_SERVICE_UNAVAILABLE' } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'ERR_INTERNAL' } satisfies ErrorBody);
  });
}

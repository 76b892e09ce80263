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

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001']);

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
    const dbCode = (error as { code?: string }).code;
    if (dbCode && CONNECTION_ERRORS.has(dbCode)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send({ error: 'ERR_SERVICE_UNAVAILABLE' } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'ERR_INTERNAL' } satisfies ErrorBody);
  });
}

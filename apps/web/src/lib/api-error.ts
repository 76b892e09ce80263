/**
 * The API client's error type, apart from the client itself: the query client (part of the first page load) checks
 * for it, and importing it from api.ts would pull the whole API layer into that load.
 */
import { errorText } from './errors';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly body: unknown;
  /** True when the client already showed a toast for it (401, 5xx, timeout). */
  notified = false;

  constructor(status: number, code: string | null, body: unknown) {
    super(errorText(code));
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }

  /** The offending field on validation errors (`{ error, field }`). */
  get field(): string | undefined {
    const body = this.body as { field?: unknown } | null;
    return typeof body?.field === 'string' ? body.field : undefined;
  }
}

/** The message to show for any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return errorText(null);
}

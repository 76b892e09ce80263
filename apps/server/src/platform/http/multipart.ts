/**
 * Multipart bodies with one file and some text fields (contact imports, chat media): the file part named `fileField`
 * is handed to `save` as it streams (other file parts are drained), the text fields are collected whatever their
 * order and parsed with zod. Whatever fails after the file was saved (a truncated file, a later part, bad fields)
 * discards it, so a refused upload leaves nothing behind. Size limits answer the catalogue's 413.
 */
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MEDIA_ALLOWED_MIME_PREFIXES } from '@conversa/shared';
import { AppError, fail } from './errors.js';

export const SIZE_ERRORS = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
]);

/** A file of the wrong type: the spec's file-rejected text, with 400 rather than the catalogue's 413. */
export class FileTypeRejectedError extends AppError {
  override readonly status: number = 400;
  constructor(field: string) {
    super('ERR_PAYLOAD_TOO_LARGE', field);
  }
}

export interface SingleFileUpload<T, F extends z.ZodType> {
  fileField: string;
  fields: F;
  save(part: MultipartFile): Promise<T>;
  discard(saved: T): Promise<void> | void;
  /** The field a validation error names when zod gives no path. */
  fallbackField?: string;
}

export async function receiveSingleFile<T, F extends z.ZodType>(
  request: FastifyRequest,
  upload: SingleFileUpload<T, F>,
): Promise<{ saved: T; fields: z.output<F> }> {
  if (!request.isMultipart()) throw fail('ERR_VALIDATION', upload.fileField);
  let saved: T | undefined;
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== upload.fileField || saved !== undefined) {
        part.file.resume();
        continue;
      }
      saved = await upload.save(part);
      if (part.file.truncated) throw fail('ERR_PAYLOAD_TOO_LARGE', upload.fileField);
    }
  } catch (error) {
    if (saved !== undefined) await upload.discard(saved);
    if (SIZE_ERRORS.has((error as { code?: string }).code ?? '')) throw fail('ERR_PAYLOAD_TOO_LARGE', upload.fileField);
    throw error;
  }
  if (saved === undefined) throw fail('ERR_VALIDATION', upload.fileField);
  const parsed = upload.fields.safeParse(raw);
  if (!parsed.success) {
    await upload.discard(saved);
    throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? upload.fallbackField ?? upload.fileField));
  }
  return { saved, fields: parsed.data };
}

/** The file types an upload may carry (MEDIA_ALLOWED_MIME_PREFIXES of the catalogue). */
export const allowedMediaMime = (mime: string): boolean =>
  MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => mime.toLowerCase().startsWith(prefix));

function parseFields<F extends z.ZodType>(upload: SingleFileUpload<unknown, F>, raw: unknown): z.output<F> {
  const parsed = upload.fields.safeParse(raw ?? {});
  if (!parsed.success) {
    throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? upload.fallbackField ?? upload.fileField));
  }
  return parsed.data;
}

/**
 * A form whose file is optional (client-contract forms with `medias`: quick messages, campaigns): a JSON body, or
 * multipart where the file part may be absent or an empty file input (no name). The first `fileField` file is handed
 * to `save`, others are drained; whatever fails after it was saved (a truncated file, a later part, bad fields)
 * discards it.
 */
export async function receiveOptionalFile<T, F extends z.ZodType>(
  request: FastifyRequest,
  upload: SingleFileUpload<T, F>,
): Promise<{ saved: T | null; fields: z.output<F> }> {
  if (!request.isMultipart()) return { saved: null, fields: parseFields(upload, request.body) };
  let saved: T | null = null;
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== upload.fileField || saved !== null || !part.filename) {
        part.file.resume();
        continue;
      }
      saved = await upload.save(part);
      if (part.file.truncated) throw fail('ERR_PAYLOAD_TOO_LARGE', upload.fileField);
    }
    return { saved, fields: parseFields(upload, raw) };
  } catch (error) {
    if (saved !== null) await upload.discard(saved);
    if (SIZE_ERRORS.has((error as { code?: string }).code ?? '')) throw fail('ERR_PAYLOAD_TOO_LARGE', upload.fileField);
    throw error;
  }
}

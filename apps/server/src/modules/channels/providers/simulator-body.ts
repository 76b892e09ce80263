/**
 * How the providers' simulators read a request (tests, e2e and the bench only): its raw bytes, or its fields (a JSON
 * object, or a multipart form whose files are summarised). Imports only node, so the e2e suite can load simulators.
 */
import type http from 'node:http';

export async function readRawBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A file field of a multipart form as a simulator records it. */
export interface SimulatedFormFile {
  name: string;
  type: string;
  size: number;
  text: string;
}

/**
 * The request's fields: a JSON body as it is (empty: `{}`), or a multipart form with files as SimulatedFormFile and
 * text fields as sent (`jsonFields`: a text field holding JSON is parsed, as Graph reads `recipient`, `message` ...).
 */
export async function readFields(
  req: http.IncomingMessage,
  url: string,
  options: { jsonFields?: boolean } = {},
): Promise<Record<string, unknown>> {
  const body = await readRawBody(req);
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) {
    return body.length ? (JSON.parse(body.toString()) as Record<string, unknown>) : {};
  }
  const form = await new Request(url, { method: 'POST', headers: { 'content-type': type }, body }).formData();
  const fields: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== 'string') {
      fields[key] = { name: value.name, type: value.type, size: value.size, text: await value.text() };
    } else {
      fields[key] = options.jsonFields ? parsedOrText(value) : value;
    }
  }
  return fields;
}

function parsedOrText(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * JSON request bodies, app-wide: the text is scanned for its nesting depth before it is parsed, and a body nesting
 * arrays or objects deeper than MAX_JSON_DEPTH answers 400 `ERR_VALIDATION` (`field: body`). Nothing else would stop
 * it: JSON.parse and zod take a 4,500-level value (the route's schema may let an unknown key through), and the first
 * recursive step after them (drizzle's JSON.stringify of a jsonb column, a response serializer) overflows the stack
 * and answers 500. The scan is linear and keeps no stack; the parse itself is Fastify's own (prototype poisoning
 * refused as before). A plugin with its own JSON parser (the provider webhooks keep raw bytes) calls
 * `jsonNestsDeeperThan` itself.
 */
import type { FastifyInstance } from 'fastify';
import { fail } from './errors.js';

/** Far above any body the API takes (a chat flow graph nests about 8 levels), far below a stack overflow. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Whether the JSON text nests arrays and objects deeper than `max` (brackets inside strings do not count). */
export function jsonNestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** Replaces the root's `application/json` parser (before any plugin is registered, so every route inherits it). */
export function registerJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestsDeeperThan(text)) return done(fail('ERR_VALIDATION', 'body'), undefined);
    parse(request, text, done);
  });
}

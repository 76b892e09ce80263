/**
 * What request logs may say: bearer URLs (media links, contact exports, public file names) carry their credential in
 * the path, and a log line is read by more people than the API is, so the token segment and credential headers never
 * reach it.
 */
import type { IncomingHttpHeaders } from 'node:http';

export const REDACTED = '[redacted]';

/** Path prefixes whose next segment is a bearer token (the routes that serve `<img>` tags and download links). */
const TOKEN_PATH_PREFIXES = ['/api/media/', '/api/contacts/export/', '/api/contacts/avatar/'];
/**
 * Public files (quick messages' `/api/public/{tenantId}/{name}`, chat flows' `/api/public/chat-flow/{tenantId}/{name}`,
 * and the same without `/api`, answered by a redirect): the unguessable name is the credential, so everything after
 * the tenant segment goes. Branding files (`/api/public/logo.svg`, one segment) are nobody's secret and stay.
 */
const PUBLIC_FILE_PATH = /^(\/(?:api\/)?public\/(?:chat-flow\/)?[^/]*\/)[^/].*$/;
/** `hub.verify_token`: Meta's webhook verification (official channels); `token`: the hub's subscribed URL too. */
const SECRET_QUERY_KEYS = /^(token|access_token|jrt|key|secret|signature|hub\.verify_token)$/i;
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization'];

export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  // The router decodes percent-escapes before matching (`/api/%70ublic/...` is served as `/api/public/...`): match
  // and log the decoded path, so no spelling of a credential's route escapes the rules below.
  let pathname = rawPath.includes('%') ? decodeURIComponentSafe(rawPath) : rawPath;
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  pathname = pathname.replace(PUBLIC_FILE_PATH, `$1${REDACTED}`);
  for (const prefix of TOKEN_PATH_PREFIXES) {
    if (pathname.startsWith(prefix) && pathname.length > prefix.length) {
      const rest = pathname.slice(prefix.length);
      const slash = rest.indexOf('/');
      pathname = prefix + REDACTED + (slash === -1 ? '' : rest.slice(slash));
    }
  }
  if (!query) return pathname;
  const params = query.split('&').map((pair) => {
    const key = decodeURIComponentSafe(pair.split('=')[0] ?? '');
    return SECRET_QUERY_KEYS.test(key) ? `${pair.split('=')[0]}=${REDACTED}` : pair;
  });
  return `${pathname}?${params.join('&')}`;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function redactHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.includes(name.toLowerCase()) ? REDACTED : value,
    ]),
  );
}

/** A Fastify request or a raw IncomingMessage, whichever a caller logged as `req`. */
interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: IncomingHttpHeaders;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** Fastify's request serializer (same fields), with the URL's token redacted; headers stay out of request lines. */
export function serializeRequest(request: LoggedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host ?? request.headers?.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Serializers for every logger of the process: `req` for Fastify's request lines, `headers` for anything that logs
 * raw headers (a proxy error, a provider answer).
 */
export const logSerializers = {
  req: serializeRequest,
  headers: redactHeaders,
};

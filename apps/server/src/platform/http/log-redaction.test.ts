/** Request logs never carry a bearer URL's token or a credential header. */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { createMediaLinks } from '../../modules/messages/messages.media-links.js';
import { logSerializers, redactUrl } from './log-redaction.js';

let t: TestApp;
let admin: TestUser;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' });
  ({ admin } = await t.createStaff());
  // Children share their root's destination: replacing its write captures every line the app logs.
  const stream = (t.platform.logger as unknown as Record<symbol, { write(line: string): void }>)[
    pino.symbols.streamSym
  ]!;
  stream.write = (line: string) => void lines.push(line);
});
afterAll(async () => t.close());

describe('request log redaction', () => {
  it('logs a media GET and an export download without their tokens', async () => {
    const mediaToken = createMediaLinks(t.platform.secrets.jwtSecret).url(admin.tenantId, 424242).split('/').pop()!;
    const exported = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/export?format=csv',
      headers: admin.auth,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const link = exported.json<{ downloadLink: string }>().downloadLink;
    const exportToken = link.split('/').pop()!;

    lines.splice(0);
    await t.app.inject({ method: 'GET', url: `/api/media/${mediaToken}` });
    const download = await t.app.inject({ method: 'GET', url: `${link}?token=${exportToken}` });
    expect(download.statusCode).toBe(200);

    const log = lines.join('');
    expect(log).toContain('/api/media/[redacted]');
    expect(log).toContain('/api/contacts/export/[redacted]');
    for (const secret of [mediaToken, exportToken, ...mediaToken.split('.'), ...exportToken.split('.')]) {
      expect(log).not.toContain(secret);
    }
  });

  it("logs public files' requests without their names (the name is the credential)", async () => {
    const names = ['q7Hc2kP9xLmN4vB8.png', 'cf-0b5e7c1e-3c52-4a53-9d0a-71d0c4b8e111.ogg', 'Zx81QwErTy.pdf'];
    lines.splice(0);
    await t.app.inject({ method: 'GET', url: `/api/public/${admin.tenantId}/${names[0]}` });
    await t.app.inject({ method: 'GET', url: `/api/public/chat-flow/${admin.tenantId}/${names[1]}` });
    const redirect = await t.app.inject({ method: 'GET', url: `/public/${admin.tenantId}/${names[2]}` });
    expect(redirect.statusCode).toBe(308);
    // The router decodes escapes: this spelling reaches the same route and must not log the name either.
    await t.app.inject({ method: 'GET', url: `/api/%70ublic/${admin.tenantId}/%71${names[0]!.slice(1)}` });
    const log = lines.join('');
    expect(log).toContain(`/api/public/${admin.tenantId}/[redacted]`);
    expect(log).toContain(`/api/public/chat-flow/${admin.tenantId}/[redacted]`);
    expect(log).toContain(`/public/${admin.tenantId}/[redacted]`);
    for (const name of names) expect(log).not.toContain(name.slice(3, 12));
  });

  it('keeps the bearer and the cookie out of a logged request', async () => {
    lines.splice(0);
    t.platform.logger.info({ headers: { authorization: admin.auth.authorization, cookie: 'jrt=abc123secret' } });
    const log = lines.join('');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(admin.token);
    expect(log).not.toContain('abc123secret');
  });
});

describe('redactUrl', () => {
  it('redacts token segments and token-like query values, and leaves other URLs alone', () => {
    expect(redactUrl('/api/media/abc.def')).toBe('/api/media/[redacted]');
    expect(redactUrl('/api/media/abc.def/')).toBe('/api/media/[redacted]/');
    expect(redactUrl('/api/contacts/export/abc.def?x=1')).toBe('/api/contacts/export/[redacted]?x=1');
    expect(redactUrl('/api/tickets/1?token=zzz&a=b')).toBe('/api/tickets/1?token=[redacted]&a=b');
    expect(redactUrl('/api/tickets?status=open')).toBe('/api/tickets?status=open');
    expect(redactUrl('/api/media/')).toBe('/api/media/');
    expect(redactUrl('/api/contacts/avatar/abc.def')).toBe('/api/contacts/avatar/[redacted]');
    expect(redactUrl('/api/webhooks/waba/7?hub.mode=subscribe&hub.verify_token=vt&hub.challenge=42')).toBe(
      '/api/webhooks/waba/7?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=42',
    );
    expect(redactUrl('/api/public/3/abc.png')).toBe('/api/public/3/[redacted]');
    expect(redactUrl('/public/3/abc.png?x=1')).toBe('/public/3/[redacted]?x=1');
    expect(redactUrl('/api/public/chat-flow/3/cf-abc.png')).toBe('/api/public/chat-flow/3/[redacted]');
    expect(redactUrl('/api/public/3/a%2Fb')).toBe('/api/public/3/[redacted]');
    expect(redactUrl('/api/public/logo.svg')).toBe('/api/public/logo.svg');
    expect(redactUrl('/api/public/app-info')).toBe('/api/public/app-info');
    expect(logSerializers.headers({ Authorization: 'x', cookie: 'y' })).toEqual({
      Authorization: '[redacted]',
      cookie: '[redacted]',
    });
  });
});

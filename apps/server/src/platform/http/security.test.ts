/** Security headers (helmet), CORS for REST and the socket.io handshake, and CORS_ORIGINS validation. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

const WEB_ORIGIN = 'https://web.example.com';
const OTHER_ORIGIN = 'https://evil.example.net';
let secure: TestApp;
let plain: TestApp;
let webDist: string;
let base: string;

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  secure = await createTestApp({
    PUBLIC_URL: 'https://api.example.com',
    CORS_ORIGINS: `${WEB_ORIGIN}, http://localhost:5173`,
    WEB_DIST: webDist,
  });
  plain = await createTestApp({ PUBLIC_URL: 'http://10.0.0.5:3000', WEB_DIST: webDist });
  await secure.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(secure.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await secure.close();
  await plain.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('security headers', () => {
  it('sends the CSP, nosniff and frame denial on an API answer and on index.html', async () => {
    for (const url of ['/api/health', '/']) {
      const res = await secure.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'self'"]);
      expect(csp.get('style-src'), url).toEqual(["'self'", "'unsafe-inline'"]);
      for (const name of ['img-src', 'media-src']) {
        expect(csp.get(name), `${url} ${name}`).toEqual(
          expect.arrayContaining(["'self'", 'data:', 'blob:', 'https://api.example.com']),
        );
      }
      expect(csp.get('connect-src'), url).toEqual(
        expect.arrayContaining(["'self'", 'wss://api.example.com', WEB_ORIGIN, 'http://localhost:5173']),
      );
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('sends HSTS only when PUBLIC_URL is https', async () => {
    const https = await secure.app.inject({ method: 'GET', url: '/api/health' });
    expect(https.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(directives(https.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);

    const http = await plain.app.inject({ method: 'GET', url: '/' });
    expect(http.headers['strict-transport-security']).toBeUndefined();
    const csp = directives(http.headers['content-security-policy']);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(['ws://10.0.0.5:3000']));
  });

  it('gives the API docs their own policy, still unframeable', async () => {
    const res = await secure.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toContain('https:');
    const app = directives((await secure.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(app.get('img-src')).not.toContain('https:');
  });
});

describe('CORS', () => {
  const preflight = (app: TestApp, origin: string) =>
    app.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/refresh_token',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('answers a preflight from a listed origin with that origin and credentials', async () => {
    const res = await preflight(secure, WEB_ORIGIN);
    expect([200, 204]).toContain(res.statusCode);
    expect(res.headers['access-control-allow-origin']).toBe(WEB_ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
    const get = await secure.app.inject({ method: 'GET', url: '/api/health', headers: { origin: WEB_ORIGIN } });
    expect(get.headers['access-control-allow-origin']).toBe(WEB_ORIGIN);
  });

  it('gives a refused origin, or any origin without CORS_ORIGINS, no allow-origin', async () => {
    for (const [app, origin] of [
      [secure, OTHER_ORIGIN],
      [secure, 'https://web.example.com.evil.net'],
      [plain, WEB_ORIGIN],
    ] as const) {
      const res = await preflight(app, origin);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      const get = await app.app.inject({ method: 'GET', url: '/api/health', headers: { origin } });
      expect(get.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('accepts a socket.io handshake from a listed origin, the own origin or no origin, and refuses others', async () => {
    const handshake = (origin?: string) =>
      fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: origin ? { origin } : {} });
    for (const origin of [WEB_ORIGIN, 'https://api.example.com', undefined]) {
      const res = await handshake(origin);
      expect(res.status, origin).toBe(200);
      expect(await res.text(), origin).toMatch(/^0\{"sid"/);
      if (origin === WEB_ORIGIN) expect(res.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    }
    for (const origin of [OTHER_ORIGIN, 'null']) {
      const res = await handshake(origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });
});

describe('CORS_ORIGINS', () => {
  it('takes a comma list of origins and names the variable when one is not an origin', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173/' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    for (const bad of ['a.example.com', 'https://a.example.com/app', 'ftp://a.example.com', '*']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS: ".*" is not an origin/);
    }
  });
});

/** Public branding is served without a token, with the content type browsers and clients need. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
const PUBLIC_URL = 'https://atendimento.example.com';
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
});
afterAll(async () => t.close());

// The reference client sends `Bearer null` when logged out (client-contract §1): public routes must ignore it.
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

const pngSize = (body: Buffer) => [body.readUInt32BE(16), body.readUInt32BE(20)];

describe('public branding', () => {
  it('answers the app info without a token, pointing at assets that are served', async () => {
    for (const headers of [{}, { authorization: 'Bearer null' }] as Record<string, string>[]) {
      const res = await get('/api/public/app-info/', headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const info = res.json<{
        appName: string;
        logo: string;
        favicon: string;
        manifest: string;
        themeColor: string;
        icons: { src: string }[];
      }>();
      expect(info.appName).toBe('Conversa');
      expect(info.themeColor).toMatch(/^#[0-9a-f]{6}$/i);
      // Absolute on PUBLIC_URL (client-contract §6): a client of another origin opens them as they are.
      const urls = [info.logo, info.favicon, info.manifest, ...info.icons.map((i) => i.src)];
      expect(urls).toHaveLength(6);
      for (const url of urls) {
        expect(url.startsWith(`${PUBLIC_URL}/api/public/`), url).toBe(true);
        expect((await get(new URL(url).pathname)).statusCode).toBe(200);
      }
    }
  });

  it('answers 404 for a logo file it does not have, with or without the /api prefix', async () => {
    for (const path of ['/api/public/logos/unknown.png', '/api/public/logos/a/b.svg', '/api/public/logos/']) {
      const res = await get(path, { authorization: 'Bearer null' });
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    }
    // A client built without the prefix is sent to /api first (as for quick-message files), then told the same.
    const bare = await get('/public/logos/unknown.png');
    expect(bare.statusCode).toBe(308);
    expect(bare.headers.location).toBe('/api/public/logos/unknown.png');
  });

  it('serves the logo and favicon as SVG', async () => {
    for (const path of ['/api/public/logo.svg', '/api/public/favicon.svg']) {
      const res = await get(path, { authorization: 'Bearer null' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(res.headers['cache-control']).toContain('public');
    }
  });

  it('serves PNG icons of the sizes the manifest declares', async () => {
    for (const size of [192, 512]) {
      const res = await get(`/api/public/icon-${size}.png`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const body = res.rawPayload;
      expect(body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(pngSize(body)).toEqual([size, size]);
    }
  });

  it('serves a web manifest whose icons are all served', async () => {
    const res = await get('/api/public/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = res.json<{
      name: string;
      start_url: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string }[];
    }>();
    expect(manifest).toMatchObject({ name: 'Conversa', start_url: '/', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) {
      const asset = await get(icon.src);
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toContain(icon.type);
    }
  });
});

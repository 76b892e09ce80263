/** Public branding is served without a token, with the content type browsers and clients need. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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
      const info = res.json<{ appName: string; logo: string; favicon: string; manifest: string; themeColor: string }>();
      expect(info.appName).toBe('Conversa');
      expect(info.themeColor).toMatch(/^#[0-9a-f]{6}$/i);
      for (const path of [info.logo, info.favicon, info.manifest]) expect((await get(path)).statusCode).toBe(200);
    }
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

/**
 * Public branding under /api/public (no token: login and sign-up pages, the browser's favicon and manifest requests).
 * Defaults until customisation exists (client-contract §18 `/custom/*` is a later issue); the answers are the same for
 * every caller, so they may be cached.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fail } from '../../platform/http/errors.js';
import {
  BRANDING_PATHS,
  DEFAULT_APP_NAME,
  FAVICON_SVG,
  LOGO_SVG,
  THEME_COLOR,
  renderIconPng,
  webManifest,
} from './branding.assets.js';

const appInfoSchema = z.object({
  appName: z.string(),
  themeColor: z.string(),
  logo: z.string(),
  favicon: z.string(),
  icons: z.array(z.object({ src: z.string(), sizes: z.string(), type: z.string() })),
  manifest: z.string(),
});

const CACHE = 'public, max-age=3600';
const publicRoute = (description: string) => ({
  config: { public: true },
  schema: { tags: ['branding'], description },
});

/**
 * `publicUrl`: the server's public address (PUBLIC_URL, no trailing slash). The app info's file URLs are absolute on
 * it (client-contract §6: every URL the API returns for a file); the manifest keeps paths, which browsers resolve
 * against the manifest's own address.
 */
export function brandingRoutes(options: { publicUrl: string }): FastifyPluginAsyncZod {
  const icons = { 192: renderIconPng(192), 512: renderIconPng(512) };
  const manifest = JSON.stringify(webManifest(DEFAULT_APP_NAME));
  const absolute = (path: string) => `${options.publicUrl}${path}`;

  return async (app) => {
    app.get(
      '/public/app-info',
      { config: { public: true }, schema: { tags: ['branding'], response: { 200: appInfoSchema } } },
      async () => ({
        appName: DEFAULT_APP_NAME,
        themeColor: THEME_COLOR,
        logo: absolute(BRANDING_PATHS.logo),
        favicon: absolute(BRANDING_PATHS.favicon),
        icons: webManifest(DEFAULT_APP_NAME).icons.map((icon) => ({ ...icon, src: absolute(icon.src) })),
        manifest: absolute(BRANDING_PATHS.manifest),
      }),
    );

    // The family's clients ask for uploaded logos here (client-contract §18 `/custom/uploadLogo`). No upload exists
    // yet, so every name is unknown: 404, never the quick-message route's 400 for a tenant id that is no number.
    app.get('/public/logos/*', publicRoute('An uploaded logo (none yet: 404)'), async () => {
      throw fail('ERR_NOT_FOUND');
    });

    app.get('/public/logo.svg', publicRoute('The app logo (SVG)'), async (_request, reply) =>
      reply.type('image/svg+xml').header('Cache-Control', CACHE).send(LOGO_SVG),
    );
    app.get('/public/favicon.svg', publicRoute('The favicon (SVG)'), async (_request, reply) =>
      reply.type('image/svg+xml').header('Cache-Control', CACHE).send(FAVICON_SVG),
    );
    app.get('/public/icon-192.png', publicRoute('App icon, 192 px'), async (_request, reply) =>
      reply.type('image/png').header('Cache-Control', CACHE).send(icons[192]),
    );
    app.get('/public/icon-512.png', publicRoute('App icon, 512 px'), async (_request, reply) =>
      reply.type('image/png').header('Cache-Control', CACHE).send(icons[512]),
    );
    app.get('/public/manifest.webmanifest', publicRoute('Web app manifest'), async (_request, reply) =>
      reply.type('application/manifest+json').header('Cache-Control', CACHE).send(manifest),
    );
  };
}

/** Fixed locations and identities the whole suite shares. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export const REPO_ROOT = path.resolve(here, '../..');
export const SERVER_ENTRY = process.env.E2E_SERVER_ENTRY
  ? path.resolve(process.env.E2E_SERVER_ENTRY)
  : path.join(REPO_ROOT, 'apps/server/dist/main.js');
/** The built web app the server serves; E2E_WEB_DIST points the suite (and the server's WEB_DIST) elsewhere. */
export const WEB_DIST = process.env.E2E_WEB_DIST ? path.resolve(process.env.E2E_WEB_DIST) : undefined;
export const WEB_INDEX = path.join(WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist'), 'index.html');
/** Screenshots and logs of a run (git-ignored). */
export const ARTIFACTS_DIR = path.resolve(here, '../artifacts');
export const CHROMIUM_PATH = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

export const SUPERADMIN_EMAIL = 'superadmin@e2e.test';
export const SUPERADMIN_PASSWORD = 'E2e#Super123';

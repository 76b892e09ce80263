/** Fixed locations and identities the whole suite shares. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export const REPO_ROOT = path.resolve(here, '../..');
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/main.js');
export const WEB_INDEX = path.join(REPO_ROOT, 'apps/web/dist/index.html');
/** Screenshots and logs of a run (git-ignored). */
export const ARTIFACTS_DIR = path.resolve(here, '../artifacts');
export const CHROMIUM_PATH = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

export const SUPERADMIN_EMAIL = 'superadmin@e2e.test';
export const SUPERADMIN_PASSWORD = 'E2e#Super123';

/** `browserTest(name, body)`: a vitest test with a fresh browser context, sharing one chromium per spec file. */
import fs from 'node:fs';
import { afterAll, beforeAll, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, withSession, type Session } from './browser.js';
import { e2eContext } from './context.js';
import { WEB_INDEX } from './paths.js';

export function useBrowser(): (name: string, body: (session: Session) => Promise<void>) => void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!fs.existsSync(WEB_INDEX)) throw new Error(`${WEB_INDEX} is missing: build the web app (npm run build)`);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return (name, body) =>
    it(name, async () => {
      if (!browser) throw new Error('chromium did not start');
      await withSession(browser, e2eContext(), name, body);
    });
}

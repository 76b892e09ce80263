/** Chromium through playwright-core: one browser per spec file, a fresh context (no storage) per test. */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CaptchaWatcher } from './captcha.js';
import { openClientAddress } from './client-address.js';
import type { E2eContext } from './context.js';
import { ARTIFACTS_DIR, CHROMIUM_PATH } from './paths.js';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  captcha: CaptchaWatcher;
  /** Where this session's browser reaches the server (its own client address, see client-address.ts). */
  baseUrl: string;
}

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100);

/** Saves `e2e/artifacts/<name>.png` (the name made file-safe) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.split('.').map(slug).join('.')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Runs `body` in a fresh context and page, from a client address of its own. On failure it saves
 * `<test name>.failed.png` and a log of the page's console, errors and API calls next to it, then rethrows.
 */
export async function withSession(
  browser: Browser,
  e2e: E2eContext,
  testName: string,
  body: (session: Session) => Promise<void>,
) {
  const client = await openClientAddress(e2e.port);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.setDefaultNavigationTimeout(30_000);
  const log: string[] = [];
  const at = () => new Date().toISOString();
  page.on('console', (message) => log.push(`${at()} console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => log.push(`${at()} pageerror: ${error.stack ?? error.message}`));
  page.on('requestfailed', (request) =>
    log.push(`${at()} requestfailed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  page.on('response', (response) => {
    if (response.url().includes('/api/')) {
      log.push(`${at()} ${response.request().method()} ${response.url()} -> ${response.status()}`);
    }
  });
  const captcha = new CaptchaWatcher(page);
  try {
    await body({ context, page, captcha, baseUrl: client.baseUrl });
  } catch (error) {
    const name = `${testName}.failed`;
    await screenshot(page, name).catch(() => undefined);
    log.push(`${at()} url at failure: ${page.url()} (client address ${client.ip})`);
    fs.writeFileSync(path.join(ARTIFACTS_DIR, `${slug(testName)}.failed.log`), `${log.join('\n')}\n`);
    throw error;
  } finally {
    await context.close().catch(() => undefined);
    await client.close();
  }
}

/**
 * Answers the login slider captcha the way a person would, but knowing the answer: the suite holds the server's
 * captcha secret (DATA_DIR/secrets.json) and opens the challenge token with the server's own function.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { CaptchaAnswer, CaptchaChallenge } from '@conversa/shared';
import { openCaptcha } from '../../apps/server/src/modules/auth/auth.captcha.js';
import { waitFor } from './wait.js';

export function readCaptchaSecret(dataDir: string): string {
  const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as { captchaSecret?: string };
  if (!secrets.captchaSecret) throw new Error(`no captchaSecret in ${dataDir}/secrets.json`);
  return secrets.captchaSecret;
}

/** The gap position hidden in a challenge token, in pixels of the challenge width. */
export function captchaTarget(secret: string, token: string): number {
  const opened = openCaptcha(secret, token);
  if (!opened) throw new Error('the captcha token could not be opened with the server secret');
  return Math.round(opened.x);
}

export function answerCaptcha(secret: string, challenge: CaptchaChallenge): CaptchaAnswer {
  return { token: challenge.token, x: captchaTarget(secret, challenge.token) };
}

/** Records every challenge the page receives from GET /api/auth/captcha (a refresh brings a new one). */
export class CaptchaWatcher {
  private readonly challenges: CaptchaChallenge[] = [];

  constructor(page: Page) {
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() !== 'GET' || !response.url().includes('/api/auth/captcha') || !response.ok()) return;
      response
        .json()
        .then((body: CaptchaChallenge) => {
          if (body && typeof body.token === 'string') this.challenges.push(body);
        })
        .catch(() => undefined);
    });
  }

  /** The challenge the widget shows: the one whose image is in the widget's markup, else the newest. */
  async current(page: Page): Promise<CaptchaChallenge> {
    const markup = await page.getByTestId('captcha').evaluate((element) => element.outerHTML);
    const shown = [...this.challenges].reverse().find((c) => c.background && markup.includes(c.background));
    return shown ?? this.challenges[this.challenges.length - 1]!;
  }

  async waitForChallenge(): Promise<void> {
    await waitFor('a captcha challenge from GET /api/auth/captcha', () => this.challenges.length > 0, {
      timeoutMs: 20_000,
      intervalMs: 100,
    });
  }
}

/**
 * Moves the slider handle to the gap with the keyboard (Home, then PageUp for tens and ArrowRight for units, as
 * docs/ui-test-ids.md describes), checks aria-valuenow, and waits for the widget to report `answered`.
 */
export async function solveCaptchaInUi(page: Page, watcher: CaptchaWatcher, secret: string): Promise<number> {
  await page.locator('[data-testid="captcha"][data-state="ready"]').waitFor({ state: 'visible', timeout: 20_000 });
  await watcher.waitForChallenge();
  const challenge = await watcher.current(page);
  const x = captchaTarget(secret, challenge.token);

  const slider = page.getByTestId('captcha-slider');
  await slider.focus();
  await slider.press('Home');
  for (let i = 0; i < Math.floor(x / 10); i += 1) await slider.press('PageUp');
  for (let i = 0; i < x % 10; i += 1) await slider.press('ArrowRight');

  // Correct any rounding of the widget, one pixel at a time.
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const now = Number(await slider.getAttribute('aria-valuenow'));
    if (Number.isNaN(now) || now === x) break;
    await slider.press(now < x ? 'ArrowRight' : 'ArrowLeft');
  }
  const valueNow = Number(await slider.getAttribute('aria-valuenow'));
  if (valueNow !== x) throw new Error(`captcha slider is at ${valueNow}, expected ${x}`);
  await page.locator('[data-testid="captcha"][data-state="answered"]').waitFor({ timeout: 10_000 });
  return x;
}

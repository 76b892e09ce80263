/** A spec's screen checks: screenshots into its own folder, waiting out transitions, and the collected axe audit. */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describeViolations, findAxeViolations } from './axe.js';

export type Shoot = (page: Page, name: string, options?: { fullPage?: boolean }) => Promise<void>;

/** A screenshot function saving `<dir>/<name>.png` (full page unless told; a full-page shot resizes the window). */
export function screenshotTo(dir: string): Shoot {
  return async (page, name, { fullPage = true } = {}) => {
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
  };
}

/** Waits until the element has finished its enter transition (a fading modal would be audited half transparent). */
export async function waitForOpaque(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (target) => {
      const element = document.querySelector(target);
      if (!element) return false;
      const style = getComputedStyle(element);
      return style.opacity === '1' && (style.transform === 'none' || style.transform === 'matrix(1, 0, 0, 1, 0, 0)');
    },
    selector,
    { polling: 100 },
  );
}

/**
 * `audit(screen)` screenshots the screen (once `include` is opaque) and runs axe on it (or on `include`), collecting
 * the violations in `reports` so that one run names every screen's; the spec expects `reports` empty at its end.
 */
export function screenAuditor(page: Page, shoot: (page: Page, name: string) => Promise<unknown>) {
  const reports: string[] = [];
  const audit = async (screen: string, options: { include?: string } = {}): Promise<void> => {
    if (options.include) await waitForOpaque(page, options.include);
    await shoot(page, screen);
    const violations = await findAxeViolations(page, options);
    if (violations.length > 0) reports.push(describeViolations(screen, violations));
  };
  return { reports, audit };
}

/** The accessibility helper itself: it reports a serious violation with its rule and target, and passes a clean page. */
import { expect } from 'vitest';
import { expectAccessible, findAxeViolations } from '../support/axe.js';
import { useBrowser } from '../support/suite.js';

const browserTest = useBrowser();

const doc = (body: string) =>
  `<!doctype html><html lang="pt-BR"><head><title>t</title></head><body>${body}</body></html>`;

browserTest('axe reports an icon button without a name and passes one with a name', async ({ page }) => {
  await page.setContent(doc('<main><h1>t</h1><button id="bare"><svg aria-hidden="true"></svg></button></main>'));
  const violations = await findAxeViolations(page);
  expect(violations.map((v) => v.id)).toContain('button-name');
  expect(violations.find((v) => v.id === 'button-name')?.targets).toEqual(['#bare']);
  await expect(expectAccessible(page, 'bare')).rejects.toThrow(/button-name \(critical\)[\s\S]*#bare/);

  await page.setContent(
    doc('<main><h1>t</h1><button aria-label="Fechar"><svg aria-hidden="true"></svg></button></main>'),
  );
  await expectAccessible(page, 'named');
});

// The app is served with helmet's CSP (script-src 'self'): the check has to run under that policy unchanged.
browserTest('axe runs on a page whose CSP refuses inline scripts', async ({ page }) => {
  const url = 'http://csp.e2e.test/';
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: { 'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'" },
      body: doc('<main><h1>t</h1><button id="bare"></button></main>'),
    }),
  );
  await page.goto(url);
  const violations = await findAxeViolations(page);
  expect(violations.map((v) => v.id)).toEqual(['button-name']);
});

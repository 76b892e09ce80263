/**
 * The general settings screen of issue 23: only settings something reads (no integrations or webhooks cards), and
 * switching auto-close on asks first with the server's preview (closed now, waiting for the customer). The dialog is
 * cancelled: the suite's tenant 1 keeps auto-close off for the other specs. Screenshots (/tmp/shots/settings/) and
 * axe in both colour schemes.
 */
import { expect } from 'vitest';
import { createUser } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { openRoute, submitLogin, waitForShell } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/settings');

browserTest('settings show only what acts, and auto-close asks with a preview before saving', async (session) => {
  const { page } = session;
  const email = uniqueEmail('settings-admin');
  const password = strongPassword();
  await createUser(ctx.baseUrl, ctx.superadminToken, { name: uniqueName('Config'), email, password, profile: 'admin' });
  const { reports, audit } = screenAuditor(page, shot);
  const scheme = (value: string) =>
    page.evaluate((next) => document.documentElement.setAttribute('data-mantine-color-scheme', next), value);

  await openRoute(session, '/login');
  await submitLogin(session, ctx, email, password);
  await waitForShell(page, 'admin');
  await openRoute(session, '/configuracoes/geral');
  await page.getByTestId('setting-autoClose').waitFor({ state: 'attached' });
  await page.getByTestId('tenant-flag-ticketLimit').waitFor({ state: 'visible' });
  expect(await page.getByTestId('setting-chatgpt').count()).toBe(0);
  expect(await page.getByTestId('setting-webhook').count()).toBe(0);
  await audit('general');
  await scheme('dark');
  await audit('general-dark');
  await scheme('light');

  // A click, not check(): the switch stays off until the dialog is confirmed.
  await page.getByTestId('setting-autoClose').click({ force: true });
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('auto-close-preview').waitFor({ state: 'visible' });
  await audit('auto-close-confirm', { include: '[role="dialog"]' });
  await scheme('dark');
  await audit('auto-close-confirm-dark', { include: '[role="dialog"]' });
  await scheme('light');
  await dialog.getByTestId('auto-close-cancel').click();
  await dialog.waitFor({ state: 'hidden' });
  expect(await page.getByTestId('setting-autoClose').isChecked()).toBe(false);
  expect(reports).toEqual([]);
});

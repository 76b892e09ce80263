/**
 * An admin walks the management screens (contacts, channels and a gateway channel's form, users, settings with the
 * Evolution and Wuzapi tabs, preferences) and their forms, and
 * the service screen's new-ticket and filter dialogs: each
 * screen gets a screenshot and the axe audit. All screens are audited before the test fails, so one run names every
 * violation.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { createUser } from '../support/api.js';
import { describeViolations, findAxeViolations } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { useBrowser } from '../support/suite.js';
import { connectedTelegramChannel } from '../support/telegram.js';
import { openRoute, submitLogin, waitForRoute, waitForShell } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();

browserTest(
  'an admin walks the service dialogs, contacts, channels, users, settings and preferences, each accessible',
  async (session) => {
    const { page } = session;
    const email = uniqueEmail('admin-screens');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Admin Telas'),
      email,
      password,
      profile: 'admin',
    });
    // A connected channel, so the Conexões list is audited with its rows and badges, not only its empty state.
    await connectedTelegramChannel(ctx);
    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForShell(page, 'admin');

    const reports: string[] = [];
    const audit = async (screen: string, options: { include?: string } = {}) => {
      if (options.include) await waitForOpaque(page, options.include);
      await screenshot(page, `admin-${screen}`);
      const violations = await findAxeViolations(page, options);
      if (violations.length > 0) reports.push(describeViolations(screen, violations));
    };
    const closeModal = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
    };
    // Toasts (the login's) come and go on their own timer; let them leave so each audit sees only its screen.
    await waitForNoToast(page);

    await openRoute(session, '/atendimento');
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-contact').waitFor({ state: 'visible' });
    await audit('new-ticket', { include: '[role="dialog"]' });
    await closeModal();
    await page.getByTestId('tickets-filter-open').click();
    await page.getByTestId('tickets-filter-apply').waitFor({ state: 'visible' });
    await audit('ticket-filter', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/contatos');
    await page.getByTestId('contacts-table').waitFor({ state: 'visible' });
    await audit('contacts');
    await page.getByTestId('contacts-new').click();
    await page.getByTestId('contact-form-name').waitFor({ state: 'visible' });
    await audit('contact-form', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/sessoes');
    await waitForRoute(page, '/sessoes');
    const add = page.getByTestId('channels-add').or(page.getByTestId('channels-empty-add')).first();
    await add.waitFor({ state: 'visible' });
    await audit('channels');
    await add.click();
    await page.getByTestId('channel-form-name').waitFor({ state: 'visible' });
    await audit('channel-form', { include: '[role="dialog"]' });
    // A gateway channel's form: API URL, key and the instance name derived from the name.
    await page.getByTestId('channel-form-type').click();
    await page.getByRole('option', { name: 'WhatsApp (Evolution API)' }).click();
    await page.getByTestId('channel-form-name').fill('Loja Centro');
    await page.getByTestId('channel-form-remote-path').waitFor({ state: 'visible' });
    await audit('channel-form-evolution', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/usuarios');
    await page.getByTestId('users-table').waitFor({ state: 'visible' });
    await audit('users');
    await page.getByTestId('users-new').click();
    await page.getByTestId('user-form-name').waitFor({ state: 'visible' });
    await audit('user-form', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/configuracoes');
    await waitForRoute(page, '/configuracoes/geral');
    await page.locator('[data-testid^="setting-"]').first().waitFor({ state: 'visible' });
    await audit('settings');

    await openRoute(session, '/configuracoes/evolution');
    await page.getByTestId('settings-evolution-host').waitFor({ state: 'visible' });
    await audit('settings-evolution');
    await openRoute(session, '/configuracoes/wuzapi');
    await page.getByTestId('settings-wuzapi-host').waitFor({ state: 'visible' });
    await audit('settings-wuzapi');

    await openRoute(session, '/preferencias');
    await page.getByTestId('preferences-name').waitFor({ state: 'visible' });
    await audit('preferences');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

async function waitForNoToast(page: Page): Promise<void> {
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
}

/** Waits until the element has finished its enter transition (a fading modal would be audited half transparent). */
async function waitForOpaque(page: Page, selector: string): Promise<void> {
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

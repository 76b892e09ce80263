/**
 * A superadmin onboards a company in the UI (issue 23): creates it on /tenants, its admin on /usuariotenants (the
 * company picked in the form, the admin profile offered first), a channel for it on /sessoestenants, then logs out;
 * the new admin logs in and lands in their own company. Every screen and dialog visited is audited with axe, the
 * superadmin's two new screens in both colour schemes.
 */
import { expect, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD } from '../support/paths.js';
import { screenAuditor } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { openRoute, submitLogin, waitForRoute, waitForShell, waitForToast } from '../support/ui.js';

// Four screens, three dialogs, two logins and eleven axe audits take about a minute here: more on a busy machine.
vi.setConfig({ testTimeout: 150_000 });

const ctx = e2eContext();
const browserTest = useBrowser();

/** Toasts come and go on their own timer; each audit should see only its screen. */
async function waitForNoToast(page: Page): Promise<void> {
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
}

/** Opens a Mantine Select, types to narrow it and clicks the option holding `text`. */
async function pickOption(page: Page, testId: string, text: string): Promise<void> {
  const input = page.getByTestId(testId);
  await input.click();
  await input.fill(text);
  await page
    .getByRole('option', { name: new RegExp(text) })
    .first()
    .click();
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
}

browserTest('a superadmin creates a company and its admin in the UI; the admin logs in to it', async (session) => {
  const { page } = session;
  const company = uniqueName('Padaria');
  const adminName = uniqueName('Paula Admin');
  const adminEmail = uniqueEmail('onboarding-admin');
  const adminPassword = strongPassword();
  const channelName = uniqueName('Balcao');
  const { reports, audit } = screenAuditor(page, (p, screen) => screenshot(p, `onboarding-${screen}`));

  await openRoute(session, '/login');
  await submitLogin(session, ctx, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD);
  await waitForRoute(page, '/tenants');
  await waitForShell(page, 'superadmin');
  await expect(page.getByTestId('nav-usuarioTenants').count()).resolves.toBe(1);
  await expect(page.getByTestId('nav-sessoesTenants').count()).resolves.toBe(1);

  // 1. The company.
  await page.getByTestId('tenants-table').waitFor({ state: 'visible' });
  await page.getByTestId('tenants-new').click();
  await page.getByTestId('tenant-form-name').fill(company);
  await audit('tenant-form', { include: '[role="dialog"]' });
  await page.getByTestId('tenant-form-submit').click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  const tenantRow = page.locator('[data-testid^="tenant-row-"]').filter({ hasText: company });
  await tenantRow.waitFor({ state: 'visible' });
  const tenantId = Number((await tenantRow.getAttribute('data-testid'))!.replace('tenant-row-', ''));
  expect(tenantId).toBeGreaterThan(1);
  await waitForNoToast(page);
  await audit('tenants');

  // 2. Its admin, through the users of every company.
  await page.getByTestId('nav-usuarioTenants').click();
  await waitForRoute(page, '/usuariotenants');
  await page.getByTestId('users-table').waitFor({ state: 'visible' });
  await page.locator('[data-testid^="user-company-"]').first().waitFor({ state: 'visible' });
  await audit('usuariotenants');
  await page.getByTestId('users-new').click();
  await page.getByTestId('user-form-name').waitFor({ state: 'visible' });
  await pickOption(page, 'user-form-company', company);
  // A company without an admin: the form offers the admin profile first and says so.
  await page.getByTestId('user-form-first-admin').waitFor({ state: 'visible' });
  expect(await page.getByTestId('user-form-profile').inputValue()).toBe('admin');
  await page.getByTestId('user-form-name').fill(adminName);
  await page.getByTestId('user-form-email').fill(adminEmail);
  await page.getByTestId('user-form-password').fill('Ab1!xy');
  await page.getByTestId('user-form-submit').click();
  await page
    .getByText('A senha deve ter ao menos 7 caracteres, com letras, números e um caractere especial.')
    .first()
    .waitFor({ state: 'visible' });
  await page.getByTestId('user-form-password').fill(adminPassword);
  await audit('usuariotenants-form', { include: '[role="dialog"]' });
  await page.getByTestId('user-form-submit').click();
  await waitForToast(page, 'Usuário criado!');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  // The company filter shows its users: the new admin, in that company.
  await pickOption(page, 'users-company-filter', company);
  const adminRow = page.locator(`[data-tenant="${tenantId}"]`).filter({ hasText: adminName });
  await adminRow.waitFor({ state: 'visible' });
  expect(await adminRow.textContent()).toContain('Administrador');
  await waitForNoToast(page);
  await audit('usuariotenants-filtered');

  // 3. A channel for it, through the channels of every company.
  await page.getByTestId('nav-sessoesTenants').click();
  await waitForRoute(page, '/sessoestenants');
  await page.getByTestId('channel-tenants-table').waitFor({ state: 'visible' });
  await page.getByTestId('channel-tenants-new').click();
  await page.getByTestId('channel-tenant-form-name').waitFor({ state: 'visible' });
  await pickOption(page, 'channel-tenant-form-company', company);
  await page.getByTestId('channel-tenant-form-name').fill(channelName);
  await audit('sessoestenants-form', { include: '[role="dialog"]' });
  await page.getByTestId('channel-tenant-form-submit').click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  const channelRow = page.locator(`[data-tenant="${tenantId}"]`).filter({ hasText: channelName });
  await channelRow.waitFor({ state: 'visible' });
  expect(await channelRow.textContent()).toContain(company);
  await waitForNoToast(page);
  await audit('sessoestenants');

  // Both colour schemes.
  await page.getByTestId('dark-mode-toggle').click();
  await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
  await audit('sessoestenants-dark');
  await page.getByTestId('nav-usuarioTenants').click();
  await waitForRoute(page, '/usuariotenants');
  await page.locator('[data-testid^="user-company-"]').first().waitFor({ state: 'visible' });
  await audit('usuariotenants-dark');
  await page.getByTestId('users-new').click();
  await page.getByTestId('user-form-name').waitFor({ state: 'visible' });
  await audit('usuariotenants-form-dark', { include: '[role="dialog"]' });
  await closeDialog(page);
  await page.getByTestId('dark-mode-toggle').click();
  await page.locator('html[data-mantine-color-scheme="light"]').waitFor({ state: 'attached' });

  // 4. Log out; the new admin logs in and lands in their company.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout-button').click();
  await waitForRoute(page, '/login');
  await submitLogin(session, ctx, adminEmail, adminPassword);
  await waitForShell(page, 'admin');
  await waitForRoute(page, '/home');
  await expect.poll(async () => page.getByTestId('company-name').textContent(), { timeout: 20_000 }).toBe(company);
  await waitForNoToast(page);
  await audit('admin-home');
  // Their users screen holds their company's users only, and their channels screen the channel made for them.
  await page.getByTestId('nav-usuarios').click();
  await waitForRoute(page, '/usuarios');
  await page.locator('[data-testid^="user-row-"]').first().waitFor({ state: 'visible' });
  expect(await page.locator('[data-testid^="user-row-"]').count()).toBe(1);
  await page.getByTestId('nav-sessoes').click();
  await waitForRoute(page, '/sessoes');
  await page.getByText(channelName).first().waitFor({ state: 'visible' });
  await audit('admin-sessoes');

  expect(reports, reports.join('\n\n')).toEqual([]);
});

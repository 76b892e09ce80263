/** Self sign-up of a new company (product-spec §2): the new admin lands on the dashboard of the new company. */
import { expect } from 'vitest';
import { listPlans } from '../support/api.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { generateCpf, generateMobilePhone, strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { useBrowser } from '../support/suite.js';
import { openRoute, waitForRoute, waitForShell } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();

browserTest('a visitor signs a company up and lands on /home as its admin', async (session) => {
  const { page } = session;
  const plans = await listPlans(ctx.baseUrl);
  expect(plans.length).toBeGreaterThan(0);
  const plan = plans[0]!;
  const company = uniqueName('Empresa E2E');
  const cpf = generateCpf();

  await openRoute(session, '/login');
  await page.getByTestId('signup-link').click();
  await waitForRoute(page, '/signup');
  await page.getByTestId('signup-name').fill(company);
  // Typed key by key: the fields may carry an input mask.
  await page.getByTestId('signup-cpfcnpj').pressSequentially(cpf.replace(/\D/g, ''));
  await page.getByTestId('signup-email').fill(uniqueEmail('signup'));
  await page.getByTestId('signup-phone').pressSequentially(generateMobilePhone());
  await page.getByTestId('signup-password').fill(strongPassword());
  await page.getByTestId(`signup-plan-${plan.id}`).click();
  await screenshot(page, 'signup-form');
  await page.getByTestId('signup-submit').click();

  await waitForRoute(page, '/home', 30_000);
  await waitForShell(page, 'admin');
  await page.getByText(company).first().waitFor({ state: 'visible' });
  await screenshot(page, 'signup-home');
});

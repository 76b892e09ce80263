/**
 * Self sign-up of a new company (product-spec §2): form and slider captcha, the confirmation e-mail through a real SMTP
 * server, its link, and the new admin lands on the dashboard of the new company.
 */
import { expect } from 'vitest';
import { listPlans } from '../support/api.js';
import { expectAccessible } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { solveCaptchaInUi } from '../support/captcha.js';
import { e2eContext } from '../support/context.js';
import { generateCpf, generateMobilePhone, strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { findSignupLink, waitForMail } from '../support/mail.js';
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
  const email = uniqueEmail('signup');

  await openRoute(session, '/login');
  await page.getByTestId('signup-link').click();
  await waitForRoute(page, '/signup');
  await page.getByTestId('signup-name').fill(company);
  // Typed key by key: the fields may carry an input mask.
  await page.getByTestId('signup-cpfcnpj').pressSequentially(cpf.replace(/\D/g, ''));
  await page.getByTestId('signup-email').fill(email);
  await page.getByTestId('signup-phone').pressSequentially(generateMobilePhone());
  await page.getByTestId('signup-password').fill(strongPassword());
  await page.getByTestId(`signup-plan-${plan.id}`).click();
  await solveCaptchaInUi(page, session.captcha, ctx.captchaSecret);
  await screenshot(page, 'signup-form');
  await expectAccessible(page, 'signup-form');
  await page.getByTestId('signup-submit').click();

  // Nothing exists yet: the page says to check the e-mail, whose link confirms.
  await page.getByTestId('signup-check-email').waitFor({ state: 'visible', timeout: 20_000 });
  await screenshot(page, 'signup-check-email');
  await expectAccessible(page, 'signup-check-email');
  const mail = await waitForMail(ctx.mailDir, email, 20_000);
  const link = findSignupLink(mail.raw);
  expect(link, `no confirmation link in the e-mail:\n${mail.raw}`).toBeDefined();
  await page.goto(link!.replace(/^https?:\/\/[^/#]+/, session.baseUrl));

  await waitForRoute(page, '/home', 30_000);
  await waitForShell(page, 'admin');
  await page.getByText(company).first().waitFor({ state: 'visible' });
  await screenshot(page, 'signup-home');
  await expectAccessible(page, 'signup-home');
});

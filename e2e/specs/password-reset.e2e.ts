/** Forgot password -> e-mail through a real SMTP server -> reset link -> new password -> login (product-spec §2, §8). */
import { expect } from 'vitest';
import { createUser } from '../support/api.js';
import { expectAccessible } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { findResetLink, waitForMail } from '../support/mail.js';
import { useBrowser } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { openRoute, submitLogin, waitForRoute, waitForShell, waitForToast } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();

browserTest('a user resets a forgotten password from the e-mailed link and logs in with it', async (session) => {
  const { page } = session;
  const email = uniqueEmail('reset');
  const oldPassword = strongPassword();
  const newPassword = strongPassword();
  await createUser(ctx.baseUrl, ctx.superadminToken, {
    name: uniqueName('Reset'),
    email,
    password: oldPassword,
    profile: 'user',
  });

  // As a person would: the e-mail typed on the login form, then the forgot-password link; the dialog takes it over.
  await openRoute(session, '/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('forgot-password-link').click();
  const forgotEmail = page.getByTestId('forgot-email');
  await forgotEmail.fill(email);
  await waitFor(
    'the forgot-password dialog to hold the e-mail',
    async () => (await forgotEmail.inputValue()) === email,
  );
  await page.getByTestId('forgot-submit').click();
  await waitForToast(page, 'E-mail de recuperação de senha enviado.');

  const mail = await waitForMail(ctx.mailDir, email, 20_000);
  const link = findResetLink(mail.raw);
  expect(link, `no reset link in the e-mail:\n${mail.raw}`).toBeDefined();
  expect(link!.startsWith(`${ctx.baseUrl}/`)).toBe(true);

  await page.goto(link!);
  await waitForRoute(page, '/reset');
  await page.getByTestId('reset-password').fill(newPassword);
  await page.getByTestId('reset-confirm').fill(newPassword);
  await page.getByTestId('reset-submit').click();
  await waitForToast(page, 'Senha redefinida com sucesso!');
  await screenshot(page, 'reset-done');
  await expectAccessible(page, 'reset-done');

  await openRoute(session, '/login');
  await submitLogin(session, ctx, email, newPassword);
  await waitForRoute(page, '/atendimento');
  await waitForShell(page, 'user');
  await screenshot(page, 'reset-login');
  await expectAccessible(page, 'reset-login');
});

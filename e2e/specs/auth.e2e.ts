/** Login with the slider captcha, a wrong password, and logout with the route guard (product-spec §2, §8). */
import { expect } from 'vitest';
import { createUser } from '../support/api.js';
import { expectAccessible } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD } from '../support/paths.js';
import { useBrowser } from '../support/suite.js';
import { currentRoute, openRoute, submitLogin, waitForRoute, waitForShell, waitForToast } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();

browserTest('superadmin logs in through the slider captcha and lands on /tenants', async (session) => {
  const { page } = session;
  await openRoute(session, '/login');
  await submitLogin(session, ctx, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD, {
    beforeSubmit: async () => {
      await screenshot(page, 'login');
      await expectAccessible(page, 'login');
    },
  });
  await waitForRoute(page, '/tenants');
  await waitForShell(page, 'superadmin');
  expect(await page.getByTestId('app-shell').getAttribute('data-profile')).toBe('superadmin');
  await screenshot(page, 'shell');
  await expectAccessible(page, 'shell');
});

browserTest('a wrong password shows the catalogue toast and stays on login', async (session) => {
  const { page } = session;
  const email = uniqueEmail('wrong-password');
  await createUser(ctx.baseUrl, ctx.superadminToken, {
    name: uniqueName('Wrong Password'),
    email,
    password: strongPassword(),
    profile: 'user',
  });
  await openRoute(session, '/login');
  await submitLogin(session, ctx, email, 'Not#The1Password');
  await waitForToast(page, 'Erro de autenticação. Usuário e/ou senha inválidos.');
  expect(currentRoute(page)).toBe('/login');
  expect(await page.getByTestId('app-shell').count()).toBe(0);
  await screenshot(page, 'wrong-password');
  await expectAccessible(page, 'wrong-password');
});

browserTest('logout returns to login, and the guard keeps a logged-out visitor there', async (session) => {
  const { page } = session;
  const email = uniqueEmail('logout');
  const password = strongPassword();
  await createUser(ctx.baseUrl, ctx.superadminToken, { name: uniqueName('Logout'), email, password, profile: 'admin' });
  await openRoute(session, '/login');
  await submitLogin(session, ctx, email, password);
  await waitForShell(page, 'admin');

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout-button').click();
  await waitForRoute(page, '/login');
  await page.getByTestId('login-email').waitFor();
  // The notice must come from the visit below, not from anything the logout itself showed.
  const notice = page.getByRole('alert').filter({ hasText: 'Necessário realizar login' });
  await notice.first().waitFor({ state: 'hidden', timeout: 15_000 });

  await openRoute(session, '/usuarios');
  await notice.first().waitFor({ state: 'visible' });
  await waitForRoute(page, '/login');
  await page.getByTestId('login-email').waitFor();
  expect(await page.getByTestId('app-shell').count()).toBe(0);
  expect(currentRoute(page)).toBe('/login');
  await screenshot(page, 'logout-guard');
  await expectAccessible(page, 'logout-guard');
});

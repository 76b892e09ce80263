/** Any other path shows the 404 page (product-spec §2). */
import { createUser } from '../support/api.js';
import { expectAccessible } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { useBrowser } from '../support/suite.js';
import { openRoute, submitLogin, waitForShell } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();

browserTest('an unknown route shows the 404 page', async (session) => {
  const { page } = session;
  // The guard sends visitors without a token to login first, so the 404 is checked for a logged-in user.
  const email = uniqueEmail('not-found');
  const password = strongPassword();
  await createUser(ctx.baseUrl, ctx.superadminToken, {
    name: uniqueName('Not Found'),
    email,
    password,
    profile: 'admin',
  });
  await openRoute(session, '/login');
  await submitLogin(session, ctx, email, password);
  await waitForShell(page, 'admin');

  await openRoute(session, `/rota-inexistente-${Date.now().toString(36)}`);
  await page.getByTestId('not-found').waitFor({ state: 'visible' });
  await screenshot(page, 'not-found');
  await expectAccessible(page, 'not-found');
});

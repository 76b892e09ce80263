/** Landing after login per profile (product-spec §2): admin and super on the dashboard, user on the service screen. */
import { expect } from 'vitest';
import type { Profile } from '@conversa/shared';
import { createUser } from '../support/api.js';
import { expectAccessible } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { useBrowser } from '../support/suite.js';
import { openRoute, submitLogin, waitForRoute, waitForShell } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();

const cases: { profile: Profile; landing: string }[] = [
  { profile: 'admin', landing: '/home' },
  { profile: 'super', landing: '/home' },
  { profile: 'user', landing: '/atendimento' },
];

for (const { profile, landing } of cases) {
  browserTest(`a ${profile} of tenant 1 lands on ${landing}`, async (session) => {
    const { page } = session;
    const email = uniqueEmail(`landing-${profile}`);
    const password = strongPassword();
    const user = await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName(`Landing ${profile}`),
      email,
      password,
      profile,
    });
    expect(user.profile).toBe(profile);
    expect(user.tenantId).toBe(1);

    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForRoute(page, landing);
    await waitForShell(page, profile);
    await screenshot(page, `landing-${profile}`);
    await expectAccessible(page, `landing-${profile}`);
  });
}

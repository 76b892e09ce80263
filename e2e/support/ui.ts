/** Steps a person takes in the web app, in terms of the data-testid contract (docs/ui-test-ids.md). */
import type { Page } from 'playwright-core';
import type { Session } from './browser.js';
import { solveCaptchaInUi } from './captcha.js';
import type { E2eContext } from './context.js';

/** Opens a hash route in the session's page, e.g. `/login` -> http://127.0.0.1:<port>/#/login. */
export async function openRoute(session: Session, route: string): Promise<void> {
  await session.page.goto(`${session.baseUrl}/#${route}`);
}

/** The current hash route without the leading `#`, e.g. `/home`. */
export const currentRoute = (page: Page): string => new URL(page.url()).hash.replace(/^#/, '');

/** Waits until the hash route is `route` (a child path or a query after it also counts). */
export async function waitForRoute(page: Page, route: string, timeout = 20_000): Promise<void> {
  try {
    await page.waitForFunction(
      (expected) => {
        const hash = window.location.hash.replace(/^#/, '');
        return hash === expected || hash.startsWith(`${expected}/`) || hash.startsWith(`${expected}?`);
      },
      route,
      { timeout, polling: 100 },
    );
  } catch (error) {
    throw new Error(`expected route ${route}, still at ${currentRoute(page)}: ${(error as Error).message}`);
  }
}

/** Fills the login form, answers the captcha through the slider and submits. */
export async function submitLogin(
  session: Session,
  e2e: E2eContext,
  email: string,
  password: string,
  options: { beforeSubmit?: () => Promise<void> } = {},
): Promise<void> {
  const { page } = session;
  if (!currentRoute(page).startsWith('/login')) await openRoute(session, '/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await solveCaptchaInUi(page, session.captcha, e2e.captchaSecret);
  await options.beforeSubmit?.();
  await page.getByTestId('login-submit').click();
}

/** Waits for the main shell of a logged-in user with this profile. */
export async function waitForShell(page: Page, profile: string): Promise<void> {
  await page.locator(`[data-testid="app-shell"][data-profile="${profile}"]`).waitFor({ state: 'visible' });
}

/**
 * Logs `user` in through the login screen and waits for the shell of its profile (first for the `landing` route, when
 * given).
 */
export async function logIn(
  session: Session,
  e2e: E2eContext,
  user: { email: string; password: string; profile: string },
  options: { landing?: string } = {},
): Promise<void> {
  await openRoute(session, '/login');
  await submitLogin(session, e2e, user.email, user.password);
  if (options.landing) await waitForRoute(session.page, options.landing);
  await waitForShell(session.page, user.profile);
}

/** Waits for a toast (Mantine notification, role alert) holding `text`. */
export async function waitForToast(page: Page, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).first().waitFor({ state: 'visible' });
}

/**
 * Ticket logs in the chat (client-contract §4.3): an admin accepts a Telegram ticket, resolves it without farewell and
 * reopens it; the logs dialog labels each entry, the reopen by its own label although the server logs it with the
 * contract's `open`. Screenshots in /tmp/shots/ticket-logs/ and the axe audit in both colour schemes.
 */
import crypto from 'node:crypto';
import { expect, vi } from 'vitest';
import { apiRequest, createUser, loginThroughApi } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { connectedTelegramChannel, postUpdate } from '../support/telegram.js';
import { openRoute, submitLogin, waitForRoute, waitForShell } from '../support/ui.js';

vi.setConfig({ testTimeout: 120_000 });

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/ticket-logs');

function textUpdate(chatId: number, firstName: string, text: string) {
  return {
    update_id: crypto.randomInt(1, 2 ** 31),
    message: {
      message_id: crypto.randomInt(1, 2 ** 31),
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', first_name: firstName },
      from: { id: chatId, is_bot: false, first_name: firstName },
      text,
    },
  };
}

browserTest(
  'the logs dialog labels a resolve without farewell and a reopen, accessible in both schemes',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx);
    const email = uniqueEmail('admin-logs');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Admin Logs'),
      email,
      password,
      profile: 'admin',
    });
    const { reports, audit } = screenAuditor(page, shot);

    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForShell(page, 'admin');
    await openRoute(session, '/atendimento');
    await page.getByTestId('tickets-subtab-pending').click();
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Rui${crypto.randomInt(1000, 9999)}`;
    expect(await postUpdate(ctx.telegramApiRoot, token, textUpdate(chatId, customer, 'Preciso de ajuda'))).toBe(200);
    const row = page.locator('[data-testid^="ticket-row-"]').filter({ hasText: customer });
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    const ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForRoute(page, `/atendimento/${ticketId}`);

    // Closed without farewell, then reopened (through the API, as another client of the family would).
    const admin = await loginThroughApi(ctx.baseUrl, ctx.captchaSecret, email, password);
    await apiRequest(ctx.baseUrl, 'PUT', `/ticketsForce/${ticketId}`, {
      token: admin.token,
      body: { status: 'closed', userId: admin.userId },
    });
    await apiRequest(ctx.baseUrl, 'PUT', `/tickets/${ticketId}`, {
      token: admin.token,
      body: { status: 'open', userId: admin.userId },
    });
    const logs = await apiRequest<{ type: string }[]>(ctx.baseUrl, 'GET', `/tickets/${ticketId}/logs`, {
      token: admin.token,
    });
    // The contract's names on the wire: the force close is `closed`, the reopen `open`.
    expect(logs.map((l) => l.type).slice(-2)).toEqual(['closed', 'open']);

    await page.reload();
    await page.getByTestId('chat-action-logs').click();
    const table = page.getByTestId('chat-logs-table');
    await table.waitFor({ state: 'visible' });
    await table.getByText('Reabriu o ticket').waitFor({ state: 'visible' });
    await table.getByText('Fechou sem despedida/avaliação').waitFor({ state: 'visible' });
    await audit('chat-logs', { include: '.mantine-Modal-content' });
    await page.keyboard.press('Escape');
    await page.getByTestId('dark-mode-toggle').click();
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await page.getByTestId('chat-action-logs').click();
    await table.waitFor({ state: 'visible' });
    await audit('chat-logs-dark', { include: '.mantine-Modal-content' });
    await page.keyboard.press('Escape');
    await page.getByTestId('dark-mode-toggle').click();
    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

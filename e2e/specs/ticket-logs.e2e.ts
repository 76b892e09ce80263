/**
 * Ticket logs in the chat (client-contract §4.3): an admin accepts a Telegram ticket, resolves it without farewell and
 * reopens it; the logs dialog labels each entry, the reopen by its own label although the server logs it with the
 * contract's `open`. Screenshots in /tmp/shots/ticket-logs/ and the axe audit in both colour schemes.
 */
import crypto from 'node:crypto';
import { expect, vi } from 'vitest';
import { apiRequest, createTestUser, loginThroughApi } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { acceptTicketOf, openPendingTab } from '../support/conversations.js';
import { uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { logIn } from '../support/ui.js';

vi.setConfig({ testTimeout: 120_000 });

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/ticket-logs');

browserTest(
  'the logs dialog labels a resolve without farewell and a reopen, accessible in both schemes',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx);
    const adminUser = await createTestUser(ctx, {
      emailPrefix: 'admin-logs',
      name: uniqueName('Admin Logs'),
      profile: 'admin',
    });
    const { reports, audit } = screenAuditor(page, shot);

    await logIn(session, ctx, adminUser);
    await openPendingTab(session);
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Rui${crypto.randomInt(1000, 9999)}`;
    expect(await postUpdate(ctx.telegramApiRoot, token, textUpdate(chatId, customer, 'Preciso de ajuda'))).toBe(200);
    const ticketId = await acceptTicketOf(page, customer);

    // Closed without farewell, then reopened (through the API, as another client of the family would).
    const admin = await loginThroughApi(ctx.baseUrl, ctx.captchaSecret, adminUser.email, adminUser.password);
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

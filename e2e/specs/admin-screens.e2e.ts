/**
 * An admin walks the management screens (contacts, channels and a gateway channel's form, users, settings with the
 * Evolution and Wuzapi tabs, preferences) and their forms, and
 * the service screen's new-ticket and filter dialogs: each
 * screen gets a screenshot and the axe audit. All screens are audited before the test fails, so one run names every
 * violation. A second walk opens the WhatsApp session tools on a connected Baileys channel: the contacts screen's
 * menu, confirmation and result dialogs, Import old messages on the channel card, and Sync history in a chat.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { ChannelDto } from '@conversa/shared';
import { apiRequest, createUser } from '../support/api.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { connectedTelegramChannel } from '../support/telegram.js';
import { openRoute, submitLogin, waitForRoute, waitForShell } from '../support/ui.js';
import { waitFor } from '../support/wait.js';
import { customerWrites, scanQr, waitForSocket } from '../support/whatsapp.js';

const ctx = e2eContext();
const browserTest = useBrowser();

browserTest(
  'an admin walks the service dialogs, contacts, channels, users, settings and preferences, each accessible',
  async (session) => {
    const { page } = session;
    const email = uniqueEmail('admin-screens');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Admin Telas'),
      email,
      password,
      profile: 'admin',
    });
    // A connected channel, so the Conexões list is audited with its rows and badges, not only its empty state.
    await connectedTelegramChannel(ctx);
    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForShell(page, 'admin');

    const { reports, audit } = screenAuditor(page, (p, screen) => screenshot(p, `admin-${screen}`));
    const closeModal = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
    };
    // Toasts (the login's) come and go on their own timer; let them leave so each audit sees only its screen.
    await waitForNoToast(page);

    await openRoute(session, '/atendimento');
    await page.getByTestId('tickets-new').click();
    await page.getByTestId('new-ticket-contact').waitFor({ state: 'visible' });
    await audit('new-ticket', { include: '[role="dialog"]' });
    await closeModal();
    await page.getByTestId('tickets-filter-open').click();
    await page.getByTestId('tickets-filter-apply').waitFor({ state: 'visible' });
    await audit('ticket-filter', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/contatos');
    await page.getByTestId('contacts-table').waitFor({ state: 'visible' });
    await audit('contacts');
    await page.getByTestId('contacts-new').click();
    await page.getByTestId('contact-form-name').waitFor({ state: 'visible' });
    await audit('contact-form', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/sessoes');
    await waitForRoute(page, '/sessoes');
    const add = page.getByTestId('channels-add').or(page.getByTestId('channels-empty-add')).first();
    await add.waitFor({ state: 'visible' });
    await audit('channels');
    await add.click();
    await page.getByTestId('channel-form-name').waitFor({ state: 'visible' });
    await audit('channel-form', { include: '[role="dialog"]' });
    // A gateway channel's form: API URL, key and the instance name derived from the name.
    await page.getByTestId('channel-form-type').click();
    await page.getByRole('option', { name: 'WhatsApp (Evolution API)' }).click();
    await page.getByTestId('channel-form-name').fill('Loja Centro');
    await page.getByTestId('channel-form-remote-path').waitFor({ state: 'visible' });
    await audit('channel-form-evolution', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/usuarios');
    await page.getByTestId('users-table').waitFor({ state: 'visible' });
    await audit('users');
    await page.getByTestId('users-new').click();
    await page.getByTestId('user-form-name').waitFor({ state: 'visible' });
    await audit('user-form', { include: '[role="dialog"]' });
    await closeModal();

    await openRoute(session, '/configuracoes');
    await waitForRoute(page, '/configuracoes/geral');
    await page.locator('[data-testid^="setting-"]').first().waitFor({ state: 'visible' });
    await audit('settings');

    await openRoute(session, '/configuracoes/evolution');
    await page.getByTestId('settings-evolution-host').waitFor({ state: 'visible' });
    await audit('settings-evolution');
    await openRoute(session, '/configuracoes/wuzapi');
    await page.getByTestId('settings-wuzapi-host').waitFor({ state: 'visible' });
    await audit('settings-wuzapi');

    await openRoute(session, '/preferencias');
    await page.getByTestId('preferences-name').waitFor({ state: 'visible' });
    await audit('preferences');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

browserTest(
  'an admin opens the WhatsApp session tools: the contacts menu, its dialogs and both history imports, each accessible',
  async (session) => {
    const { page } = session;
    const email = uniqueEmail('admin-wapp-tools');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Admin Sessao'),
      email,
      password,
      profile: 'admin',
    });
    // A connected Baileys channel (the simulator's phone scans the QR) and a customer's ticket on it.
    const channel = await connectedBaileysChannel();
    const customer = { number: `55319${crypto.randomInt(10_000_000, 99_999_999)}`, name: uniqueName('Rita') };
    await customerWrites(ctx.whatsappSimulatorUrl, channel.id, customer, 'Bom dia, meu pedido chegou?');

    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForShell(page, 'admin');

    const { reports, audit } = screenAuditor(page, (p, screen) => screenshot(p, `admin-${screen}`));
    await waitForNoToast(page);

    // Contacts: the WhatsApp menu, the check's confirmation (cancelled), and a group sync's counts.
    await openRoute(session, '/contatos');
    await page.getByTestId('contacts-table').waitFor({ state: 'visible' });
    const tools = page.getByTestId('contacts-session-tools');
    await tools.click();
    await page.getByTestId('contacts-check-numbers').waitFor({ state: 'visible' });
    await audit('contacts-session-menu', { include: '[role="menu"]' });
    await page.getByTestId('contacts-check-numbers').click();
    await page.getByTestId('confirm-check-contacts').waitFor({ state: 'visible' });
    await audit('contacts-check-confirm', { include: '[role="dialog"]' });
    await page.getByTestId('confirm-cancel').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await tools.click();
    await page.getByTestId('contacts-sync-groups').click();
    await page.getByTestId('contacts-session-result-close').waitFor({ state: 'visible', timeout: 20_000 });
    await audit('contacts-sync-result', { include: '[role="dialog"]' });
    await page.getByTestId('contacts-session-result-close').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // Channels: Import old messages on the connected card; a refused limit shows the spec's text.
    await openRoute(session, '/sessoes');
    await page.getByTestId(`channel-import-old-${channel.id}`).click();
    const limit = page.getByTestId('channel-import-old-limit');
    await limit.waitFor({ state: 'visible' });
    await audit('channel-import-old', { include: '[role="dialog"]' });
    await limit.fill('1.5');
    await page.getByTestId('channel-import-old-submit').click();
    await page.getByText('O limite deve ser um número positivo.').waitFor({ state: 'visible' });
    await audit('channel-import-old-invalid', { include: '[role="dialog"]' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // The customer's chat: Sync history from the ticket's menu, then the import's progress toast.
    await openRoute(session, '/atendimento');
    await page.getByTestId('tickets-subtab-pending').click();
    const row = page.locator('[data-testid^="ticket-row-"]').filter({ hasText: customer.name });
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    const ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
    await openRoute(session, `/atendimento/${ticketId}`);
    await page.getByTestId('chat-action-more').click();
    await page.getByTestId('chat-action-sync-history').waitFor({ state: 'visible' });
    await audit('chat-more-menu', { include: '[role="menu"]' });
    await page.getByTestId('chat-action-sync-history').click();
    await page.getByTestId('chat-sync-history-limit').waitFor({ state: 'visible' });
    await audit('chat-sync-history', { include: '[role="dialog"]' });
    await page.getByTestId('chat-sync-history-limit').fill('20');
    await page.getByTestId('chat-sync-history-submit').click();
    await page.getByTestId('chat-sync-history-limit').waitFor({ state: 'hidden', timeout: 20_000 });
    await page.getByText('Importação iniciada. O progresso aparece em uma notificação.').waitFor({ state: 'visible' });
    // The server's `{T}:importMessages` progress arrives as the import toast the socket listener already shows.
    await page.getByText('Importação de mensagens').waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'admin-chat-sync-history-started');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

/** A Baileys channel of tenant 1, connected: its session started and the simulator's phone scanned the QR code. */
async function connectedBaileysChannel(): Promise<ChannelDto> {
  const channel = await apiRequest<ChannelDto>(ctx.baseUrl, 'POST', '/whatsapp', {
    token: ctx.superadminToken,
    body: { name: uniqueName('WhatsApp Loja'), type: 'baileys' },
  });
  await apiRequest(ctx.baseUrl, 'POST', `/whatsappsession/${channel.id}`, { token: ctx.superadminToken });
  await waitForSocket(ctx.whatsappSimulatorUrl, channel.id);
  await scanQr(ctx.whatsappSimulatorUrl, channel.id, `55119${crypto.randomInt(10_000_000, 99_999_999)}`);
  await waitFor(
    `channel ${channel.id} CONNECTED`,
    async () => {
      const current = await apiRequest<ChannelDto>(ctx.baseUrl, 'GET', `/whatsapp/${channel.id}`, {
        token: ctx.superadminToken,
      });
      return current.status === 'CONNECTED';
    },
    { timeoutMs: 30_000 },
  );
  return channel;
}

async function waitForNoToast(page: Page): Promise<void> {
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
}

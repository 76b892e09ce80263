/**
 * Notes and protocols (issue 14): an admin takes a Telegram ticket, writes a note mentioning an agent through the @
 * picker (the note shows in the history as an internal note and is never sent), sends the ticket's protocol (the
 * customer receives it at Telegram), and finds both on /notas and /protocolos. The mentioned agent then sees the
 * mention in the header's bell and opens the ticket from it. Every screen and dialog gets a screenshot
 * (/tmp/shots/notes/) and the axe audit; all are audited before the test fails.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { createTestUser } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { acceptTicketOf, openPendingTab } from '../support/conversations.js';
import { strongPassword, uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { callsOf, connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { logIn, openRoute, submitLogin, waitForRoute, waitForShell } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/notes');

browserTest(
  'a note with a mention and a protocol from the chat, found on /notas and /protocolos, the mention in the bell',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx);
    const password = strongPassword();
    const admin = await createTestUser(ctx, {
      emailPrefix: 'admin-notes',
      name: uniqueName('Admin Notas'),
      profile: 'admin',
      password,
    });
    const agentName = `Bia${crypto.randomInt(1000, 9999)} Menção`;
    const agent = await createTestUser(ctx, { emailPrefix: 'agent-notes', name: agentName, profile: 'user', password });

    const { reports, audit } = screenAuditor(page, shot);

    await logIn(session, ctx, admin);

    // The customer writes; the admin takes the ticket.
    await openPendingTab(session);
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Rita${crypto.randomInt(1000, 9999)}`;
    expect(
      await postUpdate(
        ctx.telegramApiRoot,
        token,
        textUpdate(chatId, customer, 'Meu pedido não chegou', { messageId: 1, lastName: 'Souza' }),
      ),
    ).toBe(200);
    const ticketId = await acceptTicketOf(page, customer);
    await page.getByTestId('chat-panel').getByText('Meu pedido não chegou').waitFor({ state: 'visible' });

    // A note with a mention picked from the @ list.
    await page.getByTestId('chat-action-note').click();
    const box = page.getByTestId('note-text');
    await box.waitFor({ state: 'visible' });
    await box.pressSequentially(`Verificar a entrega com @${agentName.slice(0, 5)}`);
    await page.getByTestId('note-mention-picker').getByRole('option', { name: agentName }).waitFor();
    await audit('note-modal-mention', { include: '.mantine-Modal-content' });
    await page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe(`Verificar a entrega com @${agentName} `);
    await box.pressSequentially('hoje');
    await page.getByTestId('note-save').click();
    const bubble = page.locator('[data-testid^="chat-note-"][role="note"], [data-testid^="chat-note-"]').filter({
      hasText: 'Verificar a entrega',
    });
    await bubble.first().waitFor({ state: 'visible' });
    expect(await bubble.first().textContent()).toContain('Nota interna');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await audit('chat-with-note');

    // The protocol: confirmed, sent to the customer at Telegram, shown in the chat.
    await page.getByTestId('chat-action-protocol').click();
    await audit('protocol-confirm', { include: '.mantine-Modal-content' });
    await page.getByTestId('confirm-protocol').click();
    let protocolText = '';
    await waitFor('the protocol at Telegram', async () => {
      const texts = (await callsOf(ctx.telegramApiRoot, 'sendMessage', token))
        .filter((call) => String(call.params.chat_id) === String(chatId))
        .map((call) => String(call.params.text));
      protocolText = texts.find((text) => text.startsWith('Protocolo de atendimento: ')) ?? '';
      return protocolText !== '';
    });
    // The note was never sent to the customer.
    const sent = (await callsOf(ctx.telegramApiRoot, 'sendMessage', token)).map((call) => String(call.params.text));
    expect(sent.some((text) => text.includes('Verificar a entrega'))).toBe(false);
    await page.getByTestId('chat-panel').getByText(protocolText).waitFor({ state: 'visible' });
    const protocol = protocolText.replace('Protocolo de atendimento: ', '');

    // /notas lists the note with its ticket, contact and author; search finds it.
    await openRoute(session, '/notas');
    await page.getByTestId('notes-table').waitFor({ state: 'visible' });
    await page.getByTestId('notes-search').fill(customer);
    const noteRow = page.getByTestId('notes-table').locator('tr').filter({ hasText: 'Verificar a entrega' });
    await noteRow.waitFor({ state: 'visible' });
    expect(await noteRow.textContent()).toContain(`#${ticketId}`);
    await audit('notes-page');

    // /protocolos finds the protocol by its prefix and by today's date.
    await openRoute(session, '/protocolos');
    await page.getByTestId('protocols-table').waitFor({ state: 'visible' });
    await page.getByTestId('protocols-search').fill(protocol.slice(0, 8));
    const protocolRow = page.getByTestId('protocols-table').locator('tr').filter({ hasText: protocol });
    await protocolRow.first().waitFor({ state: 'visible' });
    expect(await protocolRow.first().textContent()).toContain(customer);
    await audit('protocols-page');
    await protocolRow.first().locator('[data-testid^="protocol-open-"]').click();
    await waitForRoute(page, `/atendimento/${ticketId}`);

    // The mentioned agent: the bell counts the mention and opens the ticket.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout-button').click();
    await waitForRoute(page, '/login');
    await submitLogin(session, ctx, agent.email, password);
    await waitForShell(page, 'user');
    const bell = page.getByTestId('notification-bell');
    await waitFor('the unread mention on the bell', async () =>
      ((await bell.getAttribute('aria-label')) ?? '').includes('1'),
    );
    await bell.click();
    const mention = page.getByTestId('notification-list').locator('[data-unread]').first();
    await mention.waitFor({ state: 'visible' });
    expect(await mention.textContent()).toContain(`#${ticketId}`);
    await audit('notification-bell', { include: '[data-testid="notification-list"]' });
    await mention.click();
    await waitForRoute(page, `/atendimento/${ticketId}`);

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

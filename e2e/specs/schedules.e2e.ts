/**
 * Scheduled messages (issue 14): an admin takes a Telegram ticket and schedules a message from the chat with the
 * "tomorrow" shortcut; the chat lists it as pending; /agendamentos lists it, edits its text and cancels it. A message
 * scheduled a few seconds ahead reaches the customer at Telegram once, and its row shows sent. Every screen and
 * dialog gets a screenshot (/tmp/shots/schedules/) and the axe audit; all are audited before the test fails.
 */
import crypto from 'node:crypto';
import { expect, vi } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { apiRequest, createTestUser, loginThroughApi } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { acceptTicketOf, openPendingTab } from '../support/conversations.js';
import { uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { callsOf, connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { logIn, openRoute } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

// The walk and a real send at its time take longer than the default minute on a busy machine.
vi.setConfig({ testTimeout: 150_000 });

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/schedules');

browserTest(
  'a message scheduled from the chat, listed pending in the chat and on /agendamentos, edited and canceled; a due one is sent once',
  async (session) => {
    const { page } = session;
    const { token, channel } = await connectedTelegramChannel(ctx);
    const adminUser = await createTestUser(ctx, {
      emailPrefix: 'admin-schedules',
      name: uniqueName('Admin Agenda'),
      profile: 'admin',
    });

    const { reports, audit } = screenAuditor(page, shot);

    await logIn(session, ctx, adminUser);

    // The customer writes; the admin takes the ticket.
    await openPendingTab(session);
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Lia${crypto.randomInt(1000, 9999)}`;
    expect(
      await postUpdate(
        ctx.telegramApiRoot,
        token,
        textUpdate(chatId, customer, 'Quero lembrete', { lastName: 'Lima' }),
      ),
    ).toBe(200);
    const ticketId = await acceptTicketOf(page, customer);
    await page.getByTestId('chat-panel').getByText('Quero lembrete').waitFor({ state: 'visible' });

    // Schedule from the chat: tomorrow at 09:00.
    await page.getByTestId('chat-schedule').click();
    await page.getByTestId('schedule-body').waitFor({ state: 'visible' });
    await page.getByTestId('schedule-body').fill('Lembrete da consulta');
    // A chip's input is visually hidden: its label takes the click.
    const chip = await page.getByTestId('schedule-shortcut-tomorrow').getAttribute('id');
    await page.locator(`label[for="${chip}"]`).click();
    expect(await page.getByTestId('schedule-time').inputValue()).toBe('09:00');
    await audit('chat-schedule-form', { include: '.mantine-Modal-content' });
    await page.getByTestId('schedule-save').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const toggle = page.getByTestId('chat-scheduled-toggle');
    await toggle.waitFor({ state: 'visible' });
    await toggle.click();
    await page
      .locator('[data-testid^="chat-scheduled-"]')
      .filter({ hasText: 'Lembrete da consulta' })
      .first()
      .waitFor();
    await audit('chat-with-pending');

    // /agendamentos: listed, edited, canceled.
    await openRoute(session, '/agendamentos');
    await page.getByTestId('schedules-table').waitFor({ state: 'visible' });
    const scheduleRow = page.locator('[data-testid^="schedule-row-"]').filter({ hasText: 'Lembrete da consulta' });
    await scheduleRow.waitFor({ state: 'visible' });
    const scheduleId = Number((await scheduleRow.getAttribute('data-testid'))!.replace('schedule-row-', ''));
    expect(await scheduleRow.textContent()).toContain(customer);
    await audit('schedules-page');
    await page.getByTestId(`schedule-edit-${scheduleId}`).click();
    await page.getByTestId('schedule-body').waitFor({ state: 'visible' });
    await audit('schedule-edit', { include: '.mantine-Modal-content' });
    await page.getByTestId('schedule-body').fill('Lembrete da consulta às 10h');
    await page.getByTestId('schedule-save').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByTestId(`schedule-row-${scheduleId}`).getByText('Lembrete da consulta às 10h').waitFor();
    await page.getByTestId(`schedule-cancel-${scheduleId}`).click();
    await page.getByTestId('confirm-delete').waitFor({ state: 'visible' });
    await audit('schedule-cancel-confirm', { include: '.mantine-Modal-content' });
    await page.getByTestId('confirm-delete').click();
    await waitFor('the canceled badge', async () =>
      ((await page.getByTestId(`schedule-status-${scheduleId}`).textContent()) ?? '').includes('Cancel'),
    );

    // The new-schedule form of the screen (contact search and channel).
    await page.getByTestId('schedules-new').click();
    await page.getByTestId('schedule-contact').waitFor({ state: 'visible' });
    await audit('schedules-new-form', { include: '.mantine-Modal-content' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // A message due in a few seconds is sent once to the customer, and its row says sent.
    const admin = await loginThroughApi(ctx.baseUrl, ctx.captchaSecret, adminUser.email, adminUser.password);
    const ticket = await apiRequest<TicketDto>(ctx.baseUrl, 'GET', `/tickets/${ticketId}`, { token: admin.token });
    const due = await apiRequest<{ id: number }>(ctx.baseUrl, 'POST', '/messagesSchedule/', {
      token: admin.token,
      body: {
        contactId: ticket.contactId,
        channelId: channel.id,
        ticketId,
        body: 'Sua consulta é hoje',
        scheduleDate: new Date(Date.now() + 3000).toISOString(),
      },
    });
    const sentTexts = async () =>
      (await callsOf(ctx.telegramApiRoot, 'sendMessage', token))
        .filter((call) => String(call.params.chat_id) === String(chatId))
        .map((call) => String(call.params.text));
    await waitFor(
      'the scheduled message at Telegram',
      async () => (await sentTexts()).includes('Sua consulta é hoje'),
      { timeoutMs: 30_000 },
    );
    const dueBadge = page.getByTestId(`schedule-status-${due.id}`);
    await waitFor('the sent badge', async () => /Enviada|Sent/.test((await dueBadge.textContent()) ?? ''));
    expect(await page.getByTestId(`schedule-edit-${due.id}`).count()).toBe(0);
    await audit('schedules-page-sent');
    expect((await sentTexts()).filter((text) => text === 'Sua consulta é hoje')).toHaveLength(1);
    // The canceled one never left.
    expect((await sentTexts()).some((text) => text.startsWith('Lembrete da consulta'))).toBe(false);

    // The auto-close time is a choice of the spec's options on the settings screen.
    await openRoute(session, '/configuracoes/geral');
    const autoCloseTime = page.getByTestId('setting-autoCloseTime');
    await autoCloseTime.waitFor({ state: 'visible' });
    await autoCloseTime.click();
    await page.getByRole('option').first().waitFor({ state: 'visible' });
    expect(await page.getByRole('option').count()).toBe(5);
    await audit('settings-auto-close-time', { include: '[role="listbox"]' });
    await page.keyboard.press('Escape');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

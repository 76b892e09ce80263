/**
 * A campaign end to end (issue 25): two Telegram customers tagged VIP, a campaign (arranged through the API with a
 * start a few seconds ahead), its contacts added by tag on /campanhas/:id, started from the list after the spam
 * warning, both messages reaching Telegram while the recipients' states move, the report, and a customer's answer
 * opening a ticket that names the campaign. Then the mass-sending tabs; the report, the list and a tab again in the
 * dark scheme. Every screen is screenshotted and audited.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { CampaignDto, TicketDto } from '@conversa/shared';
import { apiRequest, createUser, loginThroughApi } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { callsOf, connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { openRoute, submitLogin, waitForShell } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/campaigns');

browserTest(
  'a campaign to a tag reaches every customer, its report counts them and an answer names it',
  async (session) => {
    const { page } = session;
    const { token: bot, channel } = await connectedTelegramChannel(ctx);
    const email = uniqueEmail('admin-campaign');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Admin Campanha'),
      email,
      password,
      profile: 'admin',
    });
    const { token } = await loginThroughApi(ctx.baseUrl, ctx.captchaSecret, email, password);
    const api = <T>(method: string, path: string, body?: unknown) =>
      apiRequest<T>(ctx.baseUrl, method, path, { token, ...(body === undefined ? {} : { body }) });

    // Two customers write first (their contacts know their Telegram chats), then their conversations are closed.
    const chats = [crypto.randomInt(100_000_000, 199_999_999), crypto.randomInt(200_000_000, 299_999_999)];
    const names = ['Marta', 'Otávio'];
    for (const [i, chatId] of chats.entries()) {
      await postUpdate(ctx.telegramApiRoot, bot, textUpdate(chatId, names[i]!, 'Oi'));
    }
    const ticketsOf = async () =>
      (await api<{ tickets: TicketDto[] }>('GET', '/tickets?status=pending&status=open&showAll=true')).tickets.filter(
        (t) => chats.map(String).includes(t.contact.telegramId ?? ''),
      );
    await waitFor('the customers’ tickets', async () => (await ticketsOf()).length === 2);
    const contactIds = (await ticketsOf()).map((t) => t.contactId);
    for (const ticket of await ticketsOf()) await api('PUT', `/tickets/${ticket.id}`, { status: 'closed' });
    const tagName = `VIP ${crypto.randomInt(1000, 9999)}`;
    const tag = await api<{ id: number }>('POST', '/tags/', { tag: tagName, color: '#1971c2', isActive: true });
    for (const id of contactIds) await api('PUT', `/contact-tags/${id}`, { tags: [tag.id] });

    const campaign = await api<CampaignDto>('POST', '/campaigns/', {
      name: `Promoção ${crypto.randomInt(1000, 9999)}`,
      start: new Date(Date.now() + 30_000).toISOString(),
      sessionId: channel.id,
      delay: 1,
      message1: 'Olá {{firstName}}, temos novidades!',
    });

    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForShell(page, 'admin');
    const { reports, audit } = screenAuditor(page, shot);

    // The contacts, added by tag.
    await openRoute(session, `/campanhas/${campaign.id}`);
    await page.getByTestId('campaign-recipients-table').waitFor({ state: 'visible' });
    await page.getByTestId('campaign-add-tags').click();
    await page.getByRole('option', { name: tagName }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('campaign-add-tags-submit').click();
    for (const id of contactIds) await page.getByTestId(`recipient-row-${id}`).waitFor({ state: 'visible' });
    await audit('campaign-contacts');

    // Started from the list, after the spam warning.
    await openRoute(session, '/campanhas');
    await page.getByTestId(`campaign-row-${campaign.id}`).waitFor({ state: 'visible' });
    await audit('campaigns-list');
    await page.getByTestId(`campaign-start-${campaign.id}`).click();
    await page.getByTestId('campaign-spam-warning').waitFor({ state: 'visible' });
    await audit('campaign-start-confirm', { include: '[role="dialog"]' });
    await page.getByTestId('campaign-start-confirm').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // At its start the lane sends both, a second apart; the customers receive the texts.
    const received = async () =>
      (await callsOf(ctx.telegramApiRoot, 'sendMessage', bot))
        .filter((call) => chats.map(String).includes(String(call.params.chat_id)))
        .map((call) => String(call.params.text))
        .sort();
    await waitFor('both campaign messages', async () => (await received()).length === 2, { timeoutMs: 40_000 });
    expect(await received()).toEqual(['Olá Marta, temos novidades!', 'Olá Otávio, temos novidades!']);
    await waitFor(
      'the campaign finished',
      async () => (await api<CampaignDto>('GET', `/campaigns/${campaign.id}`)).status === 'finished',
    );
    await audit('campaigns-finished');

    await openRoute(session, `/campanhas/${campaign.id}/relatorio`);
    await page.getByTestId('campaign-report-table').waitFor({ state: 'visible' });
    await expect.poll(() => page.getByTestId('report-count-total').innerText()).toContain('2');
    await audit('campaign-report');

    // Marta answers: a new ticket that names the campaign.
    await postUpdate(ctx.telegramApiRoot, bot, textUpdate(chats[0]!, names[0]!, 'Quero saber mais'));
    await waitFor('the answer’s ticket', async () => (await ticketsOf()).length === 1);
    const [answer] = await ticketsOf();
    const shown = await api<TicketDto>('GET', `/tickets/${answer!.id}`);
    expect(shown.campaign).toEqual({ id: campaign.id, name: campaign.name });
    await openRoute(session, `/atendimento/${answer!.id}`);
    await expect.poll(() => page.getByTestId('chat-campaign').textContent()).toContain(campaign.name);
    await audit('campaign-answer');

    // The mass-sending tabs.
    await openRoute(session, '/massa/texto');
    await page.getByTestId('bulk-text-channel').waitFor({ state: 'visible' });
    await audit('mass-text');
    await openRoute(session, '/massa/textovariavel');
    await page.getByRole('tabpanel').waitFor({ state: 'visible' });
    await audit('mass-variables');

    // The same screens in the dark scheme.
    await page.getByTestId('dark-mode-toggle').click();
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await audit('mass-variables-dark');
    await openRoute(session, `/campanhas/${campaign.id}/relatorio`);
    await page.getByTestId('campaign-report-table').waitFor({ state: 'visible' });
    await audit('campaign-report-dark');
    await openRoute(session, '/campanhas');
    await page.getByTestId(`campaign-row-${campaign.id}`).waitFor({ state: 'visible' });
    await audit('campaigns-list-dark');
    await page.getByTestId('dark-mode-toggle').click();

    expect(reports, reports.join('\n')).toEqual([]);
  },
);

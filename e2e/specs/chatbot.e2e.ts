/**
 * Routing and the chatbot (issue 16): an admin builds a two-step flow in the visual builder (the welcome step asks
 * for an option; "1" leads to a step that sends a text and hands the ticket to a queue), a Telegram channel runs it,
 * the customer writes (updates posted to the webhook) and gets the bot's messages, answers "1", and the ticket lands
 * in the chosen queue in the admin's ticket list. The chat-flow list, the builder, the business-hours screen and the
 * queue form with its distribution mode are screenshotted (/tmp/shots/chatbot/) and audited by axe.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { QueueDto, TicketDto } from '@conversa/shared';
import { apiRequest, createTestUser } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { openPendingTab, ticketRowOf } from '../support/conversations.js';
import { uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { callsOf, connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { logIn, openRoute, waitForRoute, waitForToast } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/chatbot');

const WELCOME = 'Olá! Digite 1 para falar com vendas.';
const SALES = 'Certo! Um vendedor vai atender você.';

browserTest(
  'an admin builds a two-step flow, the customer answers the bot and the ticket lands in the chosen queue',
  async (session) => {
    const { page } = session;
    const queueName = uniqueName('Vendas');
    const queue = await apiRequest<QueueDto>(ctx.baseUrl, 'POST', '/queue', {
      token: ctx.superadminToken,
      body: { queue: queueName, isActive: true },
    });
    const admin = await createTestUser(ctx, {
      emailPrefix: 'admin-chatbot',
      name: uniqueName('Admin Chatbot'),
      profile: 'admin',
    });
    await logIn(session, ctx, admin);
    const { reports, audit } = screenAuditor(page, shot);

    // The list: a new flow, created from its modal, opens in the builder.
    await openRoute(session, '/chat-flow');
    await page.getByRole('button', { name: 'Novo fluxo' }).waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    await audit('flows-list');
    await page.getByRole('button', { name: 'Novo fluxo' }).click();
    const flowName = uniqueName('Fluxo Vendas');
    await page.getByRole('dialog').getByLabel('Nome').fill(flowName);
    await audit('flows-new', { include: '.mantine-Modal-content' });
    await page.getByRole('button', { name: 'Criar e abrir o editor' }).click();
    await waitForRoute(page, '/chat-flow/builder');
    const flowId = Number(new URL(page.url().replace('#', '')).searchParams.get('id'));
    expect(flowId).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Adicionar etapa' }).waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    await audit('builder-default');

    // A second step: a text, then the ticket goes to the queue without waiting.
    await page.getByRole('button', { name: 'Adicionar etapa' }).click();
    await page.getByLabel('Nome da etapa').fill('Vendas');
    await page.getByRole('button', { name: 'Adicionar texto' }).click();
    await page.getByLabel('Interação 1: mensagem').fill(SALES);
    await page.getByRole('button', { name: 'Adicionar ação' }).click();
    // The panel's selects are native: chosen by their option's label, as a keyboard user would.
    await page.getByLabel('Ação 1: o que fazer').selectOption({ label: 'Fila' });
    await page.getByLabel('Ação 1: fila').selectOption({ label: queueName });
    await audit('builder-step-sales');

    // The welcome step: its text, and the answer "1" leads to the new step (chosen with the keyboard-friendly select).
    await page.getByRole('navigation', { name: 'Etapas' }).getByRole('button', { name: 'Boas-vindas' }).click();
    await page.getByLabel('Interação 1: mensagem').fill(WELCOME);
    await page.getByRole('button', { name: 'Adicionar condição' }).click();
    const words = page.getByRole('combobox', { name: 'Condição 1: palavras' });
    await words.fill('1');
    await words.press('Enter');
    await page.getByLabel('Condição 1: próxima etapa').selectOption({ label: 'Vendas' });
    await page.getByRole('button', { name: 'Validar' }).click();
    await page.getByText('Nenhum problema encontrado no fluxo.').first().waitFor({ state: 'visible' });
    await audit('builder-two-steps');
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await waitForToast(page, 'Fluxo salvo.');

    // What was saved is the flow the builder showed.
    const saved = await apiRequest<{ flow: { nodeList: { type: string; name: string }[] } }>(
      ctx.baseUrl,
      'GET',
      `/chat-flow/${flowId}`,
      { token: ctx.superadminToken },
    );
    expect(saved.flow.nodeList.filter((n) => n.type === 'node').map((n) => n.name)).toEqual(['Boas-vindas', 'Vendas']);

    // A Telegram channel runs the flow on its new conversations.
    const { token } = await connectedTelegramChannel(ctx, { chatFlowId: flowId });
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Bruna${crypto.randomInt(1000, 9999)}`;
    const textsToCustomer = async () =>
      (await callsOf(ctx.telegramApiRoot, 'sendMessage', token))
        .filter((call) => String(call.params.chat_id) === String(chatId))
        .map((call) => String(call.params.text));

    await openPendingTab(session);
    expect(await postUpdate(ctx.telegramApiRoot, token, textUpdate(chatId, customer, 'Oi!', { messageId: 1 }))).toBe(
      200,
    );
    await waitFor('the welcome step', async () => (await textsToCustomer()).includes(WELCOME), { timeoutMs: 30_000 });
    const { row, ticketId } = await ticketRowOf(page, customer);
    const ticket = () =>
      apiRequest<TicketDto>(ctx.baseUrl, 'GET', `/tickets/${ticketId}`, { token: ctx.superadminToken });
    const inFlow = await ticket();
    expect(inFlow.chatFlowId).toBe(flowId);
    expect(inFlow.queueId).toBeNull();

    // The customer picks "1": the bot answers and hands the ticket to the queue, live in the admin's list.
    expect(await postUpdate(ctx.telegramApiRoot, token, textUpdate(chatId, customer, '1', { messageId: 2 }))).toBe(200);
    await waitFor('the sales step', async () => (await textsToCustomer()).includes(SALES), { timeoutMs: 30_000 });
    await row.getByText(queueName).waitFor({ state: 'visible', timeout: 20_000 });
    const handedOver = await ticket();
    expect(handedOver.queueId).toBe(queue.id);
    expect(handedOver.chatFlowId).toBeNull();
    expect(handedOver.status).toBe('pending');
    expect(await textsToCustomer()).toEqual([WELCOME, SALES]);
    await audit('tickets-after-handover');

    // Business hours and the queue's distribution mode.
    await openRoute(session, '/horario-atendimento');
    await page.getByRole('heading', { name: /Horário de atendimento/ }).waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    await audit('business-hours');
    // "Open now" is read in the company's zone (the seeded America/Sao_Paulo), not this browser's (UTC).
    await page.getByTestId('bh-now').filter({ hasText: 'America/Sao_Paulo' }).waitFor({ state: 'visible' });
    // The dark scheme's dimmed text (the hints on this screen) passes axe too.
    await page.getByTestId('dark-mode-toggle').click();
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await audit('business-hours-dark');
    await page.getByTestId('dark-mode-toggle').click();
    await page.locator('html[data-mantine-color-scheme="light"]').waitFor({ state: 'attached' });
    await openRoute(session, '/filas');
    await page.getByText(queueName).waitFor({ state: 'visible' });
    await page.getByRole('button', { name: new RegExp(`Editar.*${queueName}`) }).click();
    await audit('queue-form-distribution', { include: '.mantine-Modal-content' });

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

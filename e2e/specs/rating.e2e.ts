/**
 * Resolving with a rating (issue 14): an admin resolves a Telegram ticket from the resolve dialog with "send rating",
 * the customer receives the menu and answers (posted to the webhook), the server closes the ticket and the rating
 * shows on /avaliacoes/listar. The closing messages (/fechamento), reasons (/configuracoes/motivos) and rating
 * configuration screens are visited too. Every screen and dialog gets a screenshot (/tmp/shots/resolve/) and the axe
 * audit; all are audited before the test fails, so one run names every violation.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { createUser } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { callsOf, connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { openRoute, submitLogin, waitForRoute, waitForShell } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/resolve');
const THANKS = 'Obrigado! Sua avaliação foi registrada.';

/** After a save: the dialog has gone and the table's empty state has faded out (both audit half transparent). */
async function settled(page: Page): Promise<void> {
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll('.mantine-datatable-empty-state')).every(
        (element) => getComputedStyle(element).opacity === '0',
      ),
    undefined,
    { polling: 100 },
  );
  await page.waitForLoadState('networkidle');
}

browserTest(
  'an admin resolves a Telegram ticket with a rating, the answer closes it and the ratings list shows it',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx, { sendEvaluation: true });
    const email = uniqueEmail('admin-rating');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Admin Avaliação'),
      email,
      password,
      profile: 'admin',
    });
    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForShell(page, 'admin');

    const { reports, audit } = screenAuditor(page, shot);
    const sentTexts = async (chatId: number) =>
      (await callsOf(ctx.telegramApiRoot, 'sendMessage', token))
        .filter((call) => String(call.params.chat_id) === String(chatId))
        .map((call) => String(call.params.text));

    // Closing messages: create one in the dialog.
    await openRoute(session, '/fechamento');
    await page.getByTestId('farewells-table').waitFor({ state: 'visible' });
    await audit('farewells-list');
    await page.getByTestId('farewells-new').click();
    await audit('farewells-form', { include: '.mantine-Modal-content' });
    const farewell = `Obrigado pelo contato ${crypto.randomInt(1000, 9999)}!`;
    await page.getByTestId('farewell-form-message').fill(farewell);
    await page.getByTestId('farewell-form-submit').click();
    await page.getByTestId('farewells-table').getByText(farewell).waitFor({ state: 'visible' });
    await settled(page);
    await audit('farewells-filled');

    // Reasons: create one and look at the required switch.
    await openRoute(session, '/configuracoes/motivos');
    await page.getByTestId('reasons-table').waitFor({ state: 'visible' });
    await page.getByTestId('reasons-new').click();
    await audit('reasons-form', { include: '.mantine-Modal-content' });
    const reason = `Dúvida ${crypto.randomInt(1000, 9999)}`;
    await page.getByTestId('reason-form-name').fill(reason);
    await page.getByTestId('reason-form-submit').click();
    await page.getByTestId('reasons-table').getByText(reason).waitFor({ state: 'visible' });
    await settled(page);
    await audit('reasons-list');

    // The customer writes; the admin takes the ticket and resolves it with a rating and the closing message.
    await openRoute(session, '/atendimento');
    await page.getByTestId('tickets-subtab-pending').click();
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Joana${crypto.randomInt(1000, 9999)}`;
    expect(
      await postUpdate(
        ctx.telegramApiRoot,
        token,
        textUpdate(chatId, customer, 'Oi, tudo certo?', { lastName: 'Lima', messageId: 1 }),
      ),
    ).toBe(200);
    const row = page.locator('[data-testid^="ticket-row-"]').filter({ hasText: customer });
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    const ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForRoute(page, `/atendimento/${ticketId}`);
    await page.getByTestId('chat-panel').getByText('Oi, tudo certo?').waitFor({ state: 'visible' });

    await page.getByTestId('chat-action-resolve').click();
    await page
      .getByTestId('resolve-modal')
      .waitFor({ state: 'visible' })
      .catch(() => undefined);
    await page.getByTestId('resolve-confirm').waitFor({ state: 'visible' });
    expect(await page.getByTestId('resolve-rating').isChecked()).toBe(true);
    await page.getByTestId('resolve-farewell-library').check();
    await page.getByTestId('resolve-farewell-pick').click();
    await page.getByRole('option', { name: farewell }).click();
    await page.getByTestId('resolve-reason').click();
    await page.getByRole('option', { name: reason }).click();
    await audit('resolve-dialog', { include: '.mantine-Modal-content' });
    await page.getByTestId('resolve-confirm').click();
    await page.getByTestId('resolve-confirm').waitFor({ state: 'detached' });

    await waitFor('the closing message and the rating menu at Telegram', async () => {
      const texts = await sentTexts(chatId);
      return texts.includes(farewell) && texts.some((text) => text.startsWith('Como você avalia'));
    });
    // The ticket stays open until the customer answers.
    await page
      .getByTestId('chat-status')
      .filter({ hasText: /Aberto|Em atendimento|Open/i })
      .waitFor();
    await shot(page, 'resolve-waiting');

    expect(
      await postUpdate(
        ctx.telegramApiRoot,
        token,
        textUpdate(chatId, customer, '5', { lastName: 'Lima', messageId: 2 }),
      ),
    ).toBe(200);
    await waitFor('the thanks at Telegram', async () => (await sentTexts(chatId)).includes(THANKS));
    await page.getByTestId('chat-action-reopen').waitFor({ state: 'visible', timeout: 20_000 });
    // Screenshot only: the chat screen's audit belongs to conversation.e2e.ts.
    await shot(page, 'resolve-closed');

    // The ratings list shows it with its value; the configuration screen is audited too.
    await openRoute(session, '/avaliacoes');
    await waitForRoute(page, '/avaliacoes/listar');
    const ratingRow = page.getByTestId('evaluations-table').locator('tr').filter({ hasText: customer });
    await ratingRow.waitFor({ state: 'visible' });
    // The value's label comes with the rating configuration, which may load after the list.
    await ratingRow.filter({ hasText: '5 · Incrível' }).waitFor({ state: 'visible' });
    await page.getByTestId('evaluations-average').waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    await audit('evaluations-list');
    await page.getByTestId('evaluations-tab-configurar').click();
    await waitForRoute(page, '/avaliacoes/configurar');
    await page.getByTestId('rating-label-5').waitFor({ state: 'visible' });
    await page.getByTestId('rating-attempts').fill('4');
    await page.getByTestId('rating-save').click();
    // The page may run in pt or pt-BR (the browser's language): the toast says "salva" or "guardada".
    await page
      .getByRole('alert')
      .filter({ hasText: /Configuração de avaliação (salva|guardada)/ })
      .first()
      .waitFor();
    await audit('evaluations-config');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

/**
 * The heart of the product, end to end (issue 3): a customer writes to a Telegram bot, the ticket appears live in the
 * agent's pending tab, the agent starts attending and replies, the reply reaches Telegram, the agent resolves with a
 * farewell, the farewell reaches Telegram and the ticket moves to resolved 30 s later.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { createUser } from '../support/api.js';
import { expectAccessible } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { useBrowser } from '../support/suite.js';
import { callsOf, connectedTelegramChannel, postUpdate } from '../support/telegram.js';
import { submitLogin, waitForRoute, waitForShell } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

const ctx = e2eContext();
const browserTest = useBrowser();

const FAREWELL = 'Obrigado pelo contato! Até logo.';

function textUpdate(chatId: number, firstName: string, text: string, messageId: number) {
  return {
    update_id: crypto.randomInt(1, 2 ** 31),
    message: {
      message_id: messageId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', first_name: firstName, last_name: 'Silva' },
      from: { id: chatId, is_bot: false, first_name: firstName, last_name: 'Silva' },
      text,
    },
  };
}

async function sentTexts(token: string, chatId: number): Promise<string[]> {
  const calls = await callsOf(ctx.telegramApiRoot, 'sendMessage', token);
  return calls.filter((call) => String(call.params.chat_id) === String(chatId)).map((call) => String(call.params.text));
}

browserTest(
  'a Telegram message becomes a live ticket that the agent answers and resolves with a farewell',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx, { farewellMessage: FAREWELL });
    const email = uniqueEmail('agent-telegram');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Agente'),
      email,
      password,
      profile: 'user',
    });

    await submitLogin(session, ctx, email, password);
    await waitForRoute(page, '/atendimento');
    await waitForShell(page, 'user');
    await page.getByTestId('tickets-subtab-pending').click();

    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Maria${crypto.randomInt(1000, 9999)}`;
    expect(
      await postUpdate(
        ctx.telegramApiRoot,
        token,
        textUpdate(chatId, customer, 'Olá, preciso de ajuda com meu pedido', 1),
      ),
    ).toBe(200);

    // No reload: the row arrives over the socket.
    const row = page.locator('[data-testid^="ticket-row-"]').filter({ hasText: customer });
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    const ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
    await screenshot(page, 'conversation-pending-list');
    await expectAccessible(page, 'conversation-pending-list');

    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForRoute(page, `/atendimento/${ticketId}`);
    const panel = page.getByTestId('chat-panel');
    await panel.getByText('Olá, preciso de ajuda com meu pedido').waitFor({ state: 'visible' });

    const reply = 'Oi! Já estou verificando o seu pedido.';
    await page.getByTestId('chat-input').fill(reply);
    await page.getByTestId('chat-send').click();
    await waitFor('the reply at the Telegram simulator', async () => (await sentTexts(token, chatId)).includes(reply));
    await panel.getByText(reply).waitFor({ state: 'visible' });
    await screenshot(page, 'conversation-chat');
    await expectAccessible(page, 'conversation-chat');

    // The contact drawer edits with the contacts screen's form; the saved name reaches the chat header.
    await page.getByTestId('chat-contact-open').click();
    await page.getByTestId('chat-contact-edit').click();
    const renamed = `${customer} Souza`;
    await page.getByTestId('contact-form-name').fill(renamed);
    await page.getByTestId('contact-form-cpf').fill('52998224725');
    await screenshot(page, 'conversation-contact-edit');
    await expectAccessible(page, 'conversation-contact-edit');
    await page.getByTestId('contact-form-submit').click();
    await page.getByTestId('chat-contact-drawer').getByText('529.982.247-25').waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await page.getByTestId('chat-contact-name').filter({ hasText: renamed }).waitFor({ state: 'visible' });

    // The resolve dialog sends the channel's closing message by default.
    await page.getByTestId('chat-action-resolve').click();
    await page.getByTestId('resolve-confirm').click();
    await waitFor('the farewell at the Telegram simulator', async () =>
      (await sentTexts(token, chatId)).includes(FAREWELL),
    );

    // The close job runs 30 s after the farewell (product-spec §4); the list shows it under resolved.
    await page.getByTestId('tickets-subtab-closed').click();
    // Mantine keeps the switch's input visually hidden under its track: check it the way a click on the track does.
    await page.getByTestId('tickets-include-closed').check({ force: true });
    await page.getByTestId(`ticket-row-${ticketId}`).waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'conversation-resolved');
    await expectAccessible(page, 'conversation-resolved');
  },
);

browserTest(
  'a quoted reply names the customer and a deleted message keeps its stamp, accessible in both colour schemes',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx, {});
    const email = uniqueEmail('agent-quote');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Agente'),
      email,
      password,
      profile: 'user',
    });
    await submitLogin(session, ctx, email, password);
    await waitForRoute(page, '/atendimento');
    await waitForShell(page, 'user');
    await page.getByTestId('tickets-subtab-pending').click();
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Joana${crypto.randomInt(1000, 9999)}`;
    expect(
      await postUpdate(
        ctx.telegramApiRoot,
        token,
        textUpdate(chatId, customer, 'Olá, preciso de ajuda com meu pedido', 1),
      ),
    ).toBe(200);
    const row = page.locator('[data-testid^="ticket-row-"]').filter({ hasText: customer });
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    const ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForRoute(page, `/atendimento/${ticketId}`);
    const panel = page.getByTestId('chat-panel');
    await panel.getByText('Olá, preciso de ajuda com meu pedido').waitFor({ state: 'visible' });
    const reply = 'Oi! Já estou verificando o seu pedido.';
    await page.getByTestId('chat-input').fill(reply);
    await page.getByTestId('chat-send').click();
    await waitFor('the reply at the Telegram simulator', async () => (await sentTexts(token, chatId)).includes(reply));

    // A quoted reply names the customer (not "Contato"); a deleted message carries its stamp. Both pass axe in both
    // colour schemes (the quote button is named by what it shows; the stamp keeps 4.5:1 on every bubble).
    const bubble = (text: string) => panel.locator('[data-from-me]').filter({ hasText: text }).first();
    const idOf = async (text: string) =>
      Number((await bubble(text).getAttribute('data-testid'))!.replace('message-', ''));
    const askedId = await idOf('Olá, preciso de ajuda com meu pedido');
    await page.getByTestId(`message-menu-${askedId}`).click();
    await page.getByTestId('message-action-reply').click();
    await page.getByTestId('chat-reply-preview').filter({ hasText: customer }).waitFor({ state: 'visible' });
    const quoted = 'Encontrei o pedido, já te respondo.';
    await page.getByTestId('chat-input').fill(quoted);
    await page.getByTestId('chat-send').click();
    const quote = bubble(quoted).getByTestId(`message-quote-${askedId}`);
    await quote.filter({ hasText: customer }).waitFor({ state: 'visible' });
    expect(await quote.textContent()).not.toContain('Contato');
    const replyId = await idOf(reply);
    await page.getByTestId(`message-menu-${replyId}`).click();
    await page.getByTestId('message-action-delete').click();
    await page.getByTestId('confirm-delete').click();
    await page.getByTestId(`message-deleted-${replyId}`).waitFor({ state: 'visible' });
    await screenshot(page, 'conversation-quote-deleted');
    await expectAccessible(page, 'conversation-quote-deleted');
    const scheme = (value: 'light' | 'dark') =>
      page.evaluate((next) => document.documentElement.setAttribute('data-mantine-color-scheme', next), value);
    await scheme('dark');
    await screenshot(page, 'conversation-quote-deleted-dark');
    await expectAccessible(page, 'conversation-quote-deleted-dark');
    await scheme('light');
  },
);

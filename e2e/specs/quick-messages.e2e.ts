/**
 * Quick messages (issue 14): an admin creates a text quick message with variables and one with a file on
 * /mensagens-rapidas, takes a Telegram ticket, types `/` and the key in the chat, picks it from the listbox with the
 * keyboard (the variables are filled), sends it and sees it at Telegram and in the chat; then attaches the quick
 * message with a file and sends it (the image reaches Telegram as a photo). Screenshots under /tmp/shots/quick/ and
 * the axe audit of every screen and dialog; all are audited before the test fails.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { createTestUser } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { acceptTicketOf, openPendingTab } from '../support/conversations.js';
import { uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { callsOf, connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { logIn, waitForRoute } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/quick');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

browserTest(
  'quick messages: created on their screen, picked with / in the chat, sent with variables filled and with a file',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx);
    const admin = await createTestUser(ctx, {
      emailPrefix: 'admin-quick',
      name: uniqueName('Admin Rápidas'),
      profile: 'admin',
    });

    const { reports, audit } = screenAuditor(page, shot);

    await logIn(session, ctx, admin);

    // The screen, from the menu.
    await page.getByTestId('nav-mensagensRapidas').click();
    await waitForRoute(page, '/mensagens-rapidas');
    await page.getByTestId('quick-table').waitFor({ state: 'visible' });
    const suffix = crypto.randomInt(1000, 9999);
    const textKey = `ola${suffix}`;
    const fileKey = `tabela${suffix}`;

    // A text quick message with variables (the help inserts one).
    await page.getByTestId('quick-new').click();
    await page.getByTestId('quick-form-key').fill(textKey);
    await page.getByTestId('quick-form-message').fill('Olá, ');
    await page.getByTestId('quick-variable-firstName').click();
    await page.getByTestId('quick-form-message').press('End');
    await page.getByTestId('quick-form-message').pressSequentially('! Protocolo {{protocol}}.');
    await audit('quick-form', { include: '.mantine-Modal-content' });
    await page.getByTestId('quick-form-submit').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // One with a file: the text is its caption.
    await page.getByTestId('quick-new').click();
    await page.getByTestId('quick-form-key').fill(fileKey);
    await page.getByTestId('quick-form-message').fill('Nossa tabela de preços');
    await page.locator('[data-testid="quick-form-dropzone"] input[type="file"]').setInputFiles({
      name: 'tabela.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.getByTestId('quick-form-file').waitFor({ state: 'visible' });
    await audit('quick-form-file', { include: '.mantine-Modal-content' });
    await page.getByTestId('quick-form-submit').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const table = page.getByTestId('quick-table');
    await table.getByText(`/${fileKey}`).waitFor({ state: 'visible' });
    await table.getByText(`/${textKey}`).waitFor({ state: 'visible' });
    await audit('quick-page');

    // The customer writes; the admin takes the ticket.
    await openPendingTab(session);
    const chatId = crypto.randomInt(100_000_000, 999_999_999);
    const customer = `Lia${crypto.randomInt(1000, 9999)}`;
    expect(
      await postUpdate(
        ctx.telegramApiRoot,
        token,
        textUpdate(chatId, customer, 'Qual o preço?', { messageId: 1, lastName: 'Lima' }),
      ),
    ).toBe(200);
    await acceptTicketOf(page, customer);
    const panel = page.getByTestId('chat-panel');
    await panel.getByText('Qual o preço?').waitFor({ state: 'visible' });

    // `/` and part of the key: the listbox shows the match; Enter picks it and fills the variables.
    const input = page.getByTestId('chat-input');
    await input.pressSequentially(`/ola${suffix}`.slice(0, 6));
    const picker = page.getByTestId('chat-quick-picker');
    await picker.getByRole('option').first().waitFor({ state: 'visible' });
    expect(await picker.getByRole('option').allTextContents()).toEqual([expect.stringContaining(`/${textKey}`)]);
    await audit('chat-quick-picker');
    await page.keyboard.press('Enter');
    const filled = await input.inputValue();
    expect(filled).toMatch(new RegExp(`^Olá, ${customer}! Protocolo \\S+\\.$`));
    await page.getByTestId('chat-send').click();
    const sentTexts = async () =>
      (await callsOf(ctx.telegramApiRoot, 'sendMessage', token))
        .filter((call) => String(call.params.chat_id) === String(chatId))
        .map((call) => String(call.params.text));
    await waitFor('the quick message at Telegram', async () => (await sentTexts()).includes(filled));
    await panel.getByText(filled).waitFor({ state: 'visible' });

    // The one with a file is attached; Send delivers the photo with its caption.
    await input.pressSequentially(`/${fileKey}`);
    await picker.getByRole('option').first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.getByTestId('chat-quick-attachment').waitFor({ state: 'visible' });
    await audit('chat-quick-attached');
    await page.getByTestId('chat-send').click();
    await waitFor('the photo at Telegram', async () =>
      (await callsOf(ctx.telegramApiRoot, 'sendPhoto', token)).some(
        (call) => String(call.params.chat_id) === String(chatId) && call.params.caption === 'Nossa tabela de preços',
      ),
    );
    await panel.getByText('Nossa tabela de preços').waitFor({ state: 'visible' });

    // A shortcut that matches nothing is refused on send.
    await input.fill('/nadaassim');
    await page.getByTestId('chat-send').click();
    await page.getByText('Mensagem rápida /nadaassim não encontrada.').waitFor({ state: 'visible' });
    await audit('chat-after-quick');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

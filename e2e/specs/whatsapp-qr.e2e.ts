/**
 * WhatsApp over QR end to end (issue 13): an admin adds a Baileys channel on the connections screen, connects it
 * through the QR modal (the server's fake socket shows the simulator's QR; the phone scans it), the modal closes on
 * CONNECTED, a customer writes on WhatsApp, the ticket appears live and the agent's reply reaches WhatsApp.
 */
import crypto from 'node:crypto';
import { expectAccessible } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { createTestUser } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { acceptTicketOf, openPendingTab } from '../support/conversations.js';
import { uniqueName } from '../support/data.js';
import { useBrowser } from '../support/suite.js';
import { logIn, openRoute, waitForRoute } from '../support/ui.js';
import { waitFor } from '../support/wait.js';
import { customerWrites, scanQr, sentTexts, waitForSocket } from '../support/whatsapp.js';

const ctx = e2eContext();
const browserTest = useBrowser();

browserTest(
  'an admin connects WhatsApp through the QR code, a customer writes and the agent replies',
  async (session) => {
    const { page } = session;
    const admin = await createTestUser(ctx, {
      emailPrefix: 'admin-whatsapp',
      name: uniqueName('Admin WhatsApp'),
      profile: 'admin',
    });
    await logIn(session, ctx, admin);

    await openRoute(session, '/sessoes');
    await waitForRoute(page, '/sessoes');
    const add = page.getByTestId('channels-add').or(page.getByTestId('channels-empty-add')).first();
    await add.click();
    await page.getByTestId('channel-form-type').click();
    await page.getByRole('option', { name: 'WhatsApp (Baileys)' }).click();
    const name = uniqueName('Loja WhatsApp');
    await page.getByTestId('channel-form-name').fill(name);
    await page.getByTestId('channel-form-submit').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    const card = page.locator('[data-testid^="channel-card-"]').filter({ hasText: name });
    await card.waitFor({ state: 'visible' });
    const channelId = Number((await card.getAttribute('data-testid'))!.replace('channel-card-', ''));
    await page.getByTestId(`channel-connect-${channelId}`).click();

    // The session starts on the lease owner; the simulator answers its socket with a QR code, shown live.
    const modal = page.getByTestId('channel-qrcode-modal');
    await modal.waitFor({ state: 'visible' });
    await waitForSocket(ctx.whatsappSimulatorUrl, channelId);
    await page.getByTestId('channel-qrcode-image').waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'whatsapp-qrcode');
    await expectAccessible(page, 'whatsapp-qrcode', { include: '[role="dialog"]' });

    const number = `55119${crypto.randomInt(10_000_000, 99_999_999)}`;
    await scanQr(ctx.whatsappSimulatorUrl, channelId, number);
    // CONNECTED closes the modal; the card shows the connected state.
    await modal.waitFor({ state: 'hidden', timeout: 30_000 });
    await page.locator(`[data-testid="channel-status-${channelId}"][data-status="CONNECTED"]`).waitFor();
    await screenshot(page, 'whatsapp-connected');
    await expectAccessible(page, 'whatsapp-connected');

    const customer = { number: `55219${crypto.randomInt(10_000_000, 99_999_999)}`, name: uniqueName('Joana') };
    await openPendingTab(session);
    await customerWrites(ctx.whatsappSimulatorUrl, channelId, customer, 'Oi, vocês entregam no sábado?');
    await acceptTicketOf(page, customer.name);
    const panel = page.getByTestId('chat-panel');
    await panel.getByText('Oi, vocês entregam no sábado?').waitFor({ state: 'visible' });

    const reply = 'Entregamos sim, das 8h às 12h.';
    await page.getByTestId('chat-input').fill(reply);
    await page.getByTestId('chat-send').click();
    await waitFor('the reply at WhatsApp', async () =>
      (await sentTexts(ctx.whatsappSimulatorUrl, channelId, customer.number)).includes(reply),
    );
    await panel.getByText(reply).waitFor({ state: 'visible' });
    await screenshot(page, 'whatsapp-chat');
    await expectAccessible(page, 'whatsapp-chat');
  },
);

/**
 * The WhatsApp Cloud API (issue 15) in the browser, against the Graph simulator the server's META_GRAPH_URL points at:
 * 1. an admin adds a waba channel on /sessoes (credentials tab, "Verify" answered by Graph, save, the webhook panel),
 *    Meta's verification GET on the panel's URL with its token answers the challenge, and the card connects;
 * 2. a signed webhook with a customer's text makes a ticket appear live; the agent sees the 24-hour window open,
 *    replies, Graph receives the Cloud API JSON; delivered/read statuses move the ticks, a failed one shows its reason;
 * 3. a ticket the agent starts for a customer who never wrote: the window is closed, the API refuses free text with
 *    409, the composer offers a template, the picker (approved only) fills the variable, previews and sends it;
 *    a customer message written 2 days ago and delivered late leaves the window closed too;
 * 4. /configuracoes/meta and /configuracoes/hub in their states without tokens.
 * Every screen and dialog gets a screenshot (e2e/artifacts/waba-*.png) and the axe audit, collected so that one run
 * names every violation.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiRequest, createUser } from '../support/api.js';
import { screenshot, type Session } from '../support/browser.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { openRoute, submitLogin, waitForRoute, waitForShell } from '../support/ui.js';
import { waitFor } from '../support/wait.js';
import {
  addPhone,
  customerText,
  deliver,
  messageStatus,
  sendsTo,
  setTemplates,
  type SimulatedPhoneInput,
} from '../support/waba.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const DAY = 24 * 3600 * 1000;

/** A random numeric Graph id of `length` digits (no leading zero). */
const digits = (length: number) =>
  String(crypto.randomInt(1, 10)) + Array.from({ length: length - 1 }, () => crypto.randomInt(0, 10)).join('');
const phone: SimulatedPhoneInput = {
  id: digits(15),
  token: `EAAGe2e${crypto.randomBytes(20).toString('hex')}`,
  displayPhoneNumber: '+55 11 3456-7890',
  verifiedName: 'Loja Oficial E2E',
  businessAccountId: digits(15),
};
const appSecret = crypto.randomBytes(16).toString('hex');
const admin = { email: uniqueEmail('admin-waba'), password: strongPassword(), name: uniqueName('Admin Oficial') };

/** What the first test set up for the others (the channel saved through the UI and its webhook URL). */
let setup: { channelId: number; webhookUrl: string } | undefined;

async function login(session: Session): Promise<void> {
  await openRoute(session, '/login');
  await submitLogin(session, ctx, admin.email, admin.password);
  await waitForShell(session.page, 'admin');
  // The login toast is closed, so the screenshots show only the screens.
  const toast = session.page.getByRole('alert').filter({ hasText: 'Login realizado' }).first();
  await toast.waitFor({ state: 'visible' });
  await toast.locator('button').click();
  await toast.waitFor({ state: 'detached' });
}

const auditorOf = (page: Page) => screenAuditor(page, (p, screen) => screenshot(p, `waba-${screen}`));

/** The agent's bubble holding `text`. */
const outBubble = (page: Page, text: string): Locator =>
  page.locator('[data-from-me="true"]').filter({ hasText: text }).first();

browserTest(
  'an admin adds a WhatsApp Cloud API channel verified against Graph and gets its webhook',
  async (session) => {
    const { page } = session;
    await createUser(ctx.baseUrl, ctx.superadminToken, { ...admin, profile: 'admin' });
    await addPhone(ctx.graphSimulatorUrl, phone);
    await login(session);
    const { reports, audit } = auditorOf(page);

    await openRoute(session, '/sessoes');
    const add = page.getByTestId('channels-add').or(page.getByTestId('channels-empty-add')).first();
    await add.click();
    await page.getByTestId('channel-form-name').fill(uniqueName('Oficial'));
    await page.getByTestId('channel-form-type').click();
    await page.getByRole('option', { name: 'WhatsApp Cloud API (WABA)' }).click();
    await page.getByTestId('channel-tab-credentials').click();
    await page.getByTestId('channel-form-meta-token').fill(phone.token);
    await page.getByTestId('channel-form-meta-id').fill(phone.id);
    await page.getByTestId('channel-form-meta-bm').fill(phone.businessAccountId);
    await page.getByTestId('channel-form-meta-app-secret').fill(appSecret);
    await audit('channel-form-credentials', { include: '[role="dialog"]' });

    await page.getByTestId('channel-form-waba-verify').click();
    const verified = page.getByTestId('channel-form-waba-verified');
    await verified.waitFor({ state: 'visible' });
    expect(await verified.textContent()).toContain(phone.verifiedName);
    expect(await verified.textContent()).toContain('551134567890');
    await audit('channel-form-verified', { include: '[role="dialog"]' });

    // Saved, the new channel reopens on its credentials with the webhook to paste into Meta's dashboard.
    await page.getByTestId('channel-form-submit').click();
    const urlField = page.getByTestId('channel-webhook-url');
    await urlField.waitFor({ state: 'visible' });
    const webhookUrl = await urlField.inputValue();
    const verifyToken = await page.getByTestId('channel-webhook-token').inputValue();
    const channelId = Number(/\/api\/webhooks\/waba\/(\d+)$/.exec(webhookUrl)?.[1]);
    expect(webhookUrl).toBe(`${ctx.baseUrl}/api/webhooks/waba/${channelId}`);
    expect(verifyToken.length).toBeGreaterThan(8);
    // The panel sits below the credentials: scrolled into view so the screenshot shows both fields.
    await page.getByTestId('channel-webhook-token').scrollIntoViewIfNeeded();
    await audit('channel-webhook-panel', { include: '[role="dialog"]' });

    // Meta's subscription check, as its dashboard runs it: the challenge with the right token, 403 with another.
    const check = (token: string) =>
      fetch(`${webhookUrl}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`);
    const answer = await check(verifyToken);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('1158201444');
    expect((await check(`${verifyToken}x`)).status).toBe(403);

    // Connected from its card (the start checks the number at Graph again): webhooks are taken from now on.
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByTestId(`channel-connect-${channelId}`).click();
    await page.getByTestId(`channel-disconnect-${channelId}`).waitFor({ state: 'visible' });
    await audit('channels-connected');
    setup = { channelId, webhookUrl };

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

browserTest(
  'a Cloud API webhook opens a ticket live; replies reach Graph; statuses move the ticks',
  async (session) => {
    const { page } = session;
    if (!setup) throw new Error('the channel test did not finish');
    const { webhookUrl } = setup;
    await login(session);
    const { reports, audit } = auditorOf(page);

    await openRoute(session, '/atendimento');
    await page.getByTestId('tickets-subtab-pending').click();
    const customer = { number: `55119${crypto.randomInt(10_000_000, 99_999_999)}`, name: uniqueName('Marta') };
    const inbound = customerText(phone.id, customer, 'Olá, meu pedido já saiu?');
    expect((await deliver(ctx.graphSimulatorUrl, webhookUrl, inbound.payload, appSecret)).status).toBe(200);
    const row = page.locator('[data-testid^="ticket-row-"]').filter({ hasText: customer.name });
    await row.waitFor({ state: 'visible' });
    const ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForRoute(page, `/atendimento/${ticketId}`);
    const panel = page.getByTestId('chat-panel');
    await panel.getByText('Olá, meu pedido já saiu?').waitFor({ state: 'visible' });
    const indicator = page.getByTestId('chat-window');
    await indicator.waitFor({ state: 'visible' });
    expect(await indicator.getAttribute('data-state')).toBe('open');
    expect(await page.getByTestId('chat-window-state').textContent()).toMatch(/^Janela aberta até \d{2}\/\d{2}\/\d{4}/);
    await audit('chat-window-open');

    // The reply from our own chat input reaches Graph as a Cloud API text message.
    const reply = `Saiu hoje cedo, chega amanhã ${crypto.randomInt(100, 999)}.`;
    await page.getByTestId('chat-input').fill(reply);
    await page.getByTestId('chat-send').click();
    const [sent] = await waitFor('the reply at Graph', async () => {
      const found = (await sendsTo(ctx.graphSimulatorUrl, customer.number)).filter((s) =>
        JSON.stringify(s.body).includes(reply),
      );
      return found.length > 0 && found;
    });
    expect(sent!.phoneNumberId).toBe(phone.id);
    expect(sent!.token).toBe(phone.token);
    expect(sent!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: customer.number,
      type: 'text',
      text: { body: reply, preview_url: false },
    });
    const bubble = outBubble(page, reply);
    const ack = bubble.locator('[data-ack]');
    await waitFor('ack 1 (accepted by Graph)', async () => (await ack.getAttribute('data-ack')) === '1');

    // Statuses: delivered then read move the ticks forward.
    const status = (wamid: string, value: 'delivered' | 'read') =>
      deliver(
        ctx.graphSimulatorUrl,
        webhookUrl,
        messageStatus(phone.id, { wamid, recipient: customer.number, status: value }),
        appSecret,
      );
    expect((await status(sent!.id, 'delivered')).status).toBe(200);
    await waitFor('two ticks (delivered)', async () => (await ack.getAttribute('data-ack')) === '2');
    expect((await status(sent!.id, 'read')).status).toBe(200);
    await waitFor('blue ticks (read)', async () => (await ack.getAttribute('data-ack')) === '3');
    await audit('chat-acks');

    // Another reply fails at WhatsApp (a failed status with Graph's error): the bubble says why.
    const second = `Segue o código de rastreio ${crypto.randomInt(100, 999)}.`;
    await page.getByTestId('chat-input').fill(second);
    await page.getByTestId('chat-send').click();
    const failed = await waitFor('the second reply at Graph', async () =>
      (await sendsTo(ctx.graphSimulatorUrl, customer.number)).find((s) => JSON.stringify(s.body).includes(second)),
    );
    const failure = messageStatus(phone.id, {
      wamid: failed.id,
      recipient: customer.number,
      status: 'failed',
      errors: [
        {
          code: 131026,
          title: 'Message undeliverable',
          message: 'Message undeliverable',
          error_data: { details: 'Message Undeliverable.' },
        },
      ],
    });
    expect((await deliver(ctx.graphSimulatorUrl, webhookUrl, failure, appSecret)).status).toBe(200);
    const reason = outBubble(page, second).locator('[data-testid^="message-send-error-"]');
    await reason.waitFor({ state: 'visible' });
    // The provider's own words, named as the channel's (the product's reasons read 'Motivo: ...' in the UI language).
    expect(await reason.textContent()).toMatch(/^Motivo informado pelo canal: 131026: Message undeliverable/);
    await audit('chat-send-failed');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

/** The Graph templates of the business account: one APPROVED with a body variable, one REJECTED (never offered). */
const TEMPLATES = [
  {
    id: '9100000000001',
    name: 'pedido_pronto',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'BODY', text: 'Olá {{1}}, seu pedido está pronto para retirada.', example: { body_text: [['Ana']] } },
      { type: 'FOOTER', text: 'Loja Oficial' },
    ],
  },
  {
    id: '9100000000002',
    name: 'promo_recusada',
    language: 'pt_BR',
    status: 'REJECTED',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Promoção imperdível!' }],
  },
];

/**
 * The window closed on the server: the agent starts a ticket (New ticket) for a customer who never wrote on the
 * channel, so `customerWindow` is { open: false, until: null } and free text is refused; a template is the way in.
 */
browserTest('outside the 24-hour window the composer offers a template and the picker sends one', async (session) => {
  const { page } = session;
  if (!setup) throw new Error('the channel test did not finish');
  await setTemplates(ctx.graphSimulatorUrl, phone.businessAccountId, TEMPLATES);
  await login(session);
  const { reports, audit } = auditorOf(page);

  // The admin's own token and id, from the page's storage (a second login would end the page's session).
  const { token, userId } = await page.evaluate(() => ({
    token: window.localStorage.getItem('token') ?? '',
    userId: Number(window.localStorage.getItem('userId')),
  }));
  const customer = { number: `55219${crypto.randomInt(10_000_000, 99_999_999)}`, name: uniqueName('Sérgio') };
  const contact = await apiRequest<{ id: number }>(ctx.baseUrl, 'POST', '/contacts', { token, body: customer });
  const ticket = await apiRequest<{ id: number }>(ctx.baseUrl, 'POST', '/tickets', {
    token,
    body: { contactId: contact.id, whatsappId: setup.channelId, userId, status: 'open' },
  });

  await openRoute(session, `/atendimento/${ticket.id}`);
  await page.locator('[data-testid="chat-window"][data-state="closed"]').waitFor({ state: 'visible' });
  expect(await page.getByTestId('chat-window').textContent()).toContain('o cliente ainda não escreveu neste canal');
  expect(await page.getByTestId('chat-window-state').textContent()).toBe('Janela de 24 h fechada');
  await page.getByTestId('chat-window-closed').waitFor({ state: 'visible' });
  expect(await page.getByTestId('chat-input').count()).toBe(0);
  await audit('chat-window-closed');

  // The API refuses free text on this ticket too, and stores nothing.
  const refused = await fetch(`${ctx.baseUrl}/api/messages/${ticket.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body: 'Temos sim!' }),
  });
  expect(refused.status).toBe(409);
  expect(await refused.json()).toMatchObject({ error: 'ERR_WINDOW_CLOSED' });

  // The picker: approved templates only; the variable filled shows in the preview.
  await page.getByTestId('chat-template-open').click();
  const option = page.getByTestId('template-option-pedido_pronto');
  await option.waitFor({ state: 'visible' });
  expect(await page.getByTestId('template-option-promo_recusada').count()).toBe(0);
  await audit('template-picker', { include: '[role="dialog"]' });
  await option.click();
  await page.getByTestId('template-field-body-1').fill('Sérgio');
  const preview = page.getByTestId('template-preview-body');
  await waitFor('the preview with the variable', async () =>
    (await preview.textContent())?.includes('Olá Sérgio, seu pedido está pronto para retirada.'),
  );
  await audit('template-picker-filled', { include: '[role="dialog"]' });
  await page.getByTestId('template-send').click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });

  const template = await waitFor('the template at Graph', async () =>
    (await sendsTo(ctx.graphSimulatorUrl, customer.number)).find((s) => s.body.type === 'template'),
  );
  expect(template.body).toEqual({
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: customer.number,
    type: 'template',
    template: {
      name: 'pedido_pronto',
      language: { code: 'pt_BR' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Sérgio' }] }],
    },
  });
  expect((await sendsTo(ctx.graphSimulatorUrl, customer.number)).length).toBe(1);
  const bubble = page.locator('[data-testid^="message-template-"]');
  await bubble.waitFor({ state: 'visible' });
  expect(await bubble.textContent()).toContain('Olá Sérgio, seu pedido está pronto para retirada.');
  await audit('chat-template-sent');

  expect(reports, reports.join('\n\n')).toEqual([]);
});

/**
 * Meta measures the window from the customer's message, not from when its webhook reached us (Meta retries a
 * webhook for up to 7 days): a message written 2 days ago and delivered now leaves the window closed.
 */
it('a customer message 2 days old (its webhook delivered late) leaves the window closed', async () => {
  if (!setup) throw new Error('the channel test did not finish');
  const customer = { number: `55319${crypto.randomInt(10_000_000, 99_999_999)}`, name: uniqueName('Otávio') };
  const old = customerText(phone.id, customer, 'Vocês têm o modelo azul?', new Date(Date.now() - 2 * DAY));
  expect((await deliver(ctx.graphSimulatorUrl, setup.webhookUrl, old.payload, appSecret)).status).toBe(200);
  const token = ctx.superadminToken;
  const ticketId = await waitFor('the late customer ticket', async () => {
    const list = await apiRequest<{ tickets: { id: number; contact?: { number?: string } }[] }>(
      ctx.baseUrl,
      'GET',
      `/tickets?searchParam=${customer.number}&status=pending&showAll=true`,
      { token },
    );
    return list.tickets.find((t) => t.contact?.number === customer.number)?.id;
  });
  const detail = await apiRequest<{ customerWindow?: { open: boolean; until: string | null } }>(
    ctx.baseUrl,
    'GET',
    `/tickets/${ticketId}`,
    { token },
  );
  expect(detail.customerWindow?.open).toBe(false);
  const refused = await fetch(`${ctx.baseUrl}/api/messages/${ticketId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body: 'Temos sim!' }),
  });
  expect(refused.status).toBe(409);
});

browserTest('the Meta and hub settings screens without tokens', async (session) => {
  const { page } = session;
  if (!setup) await createUser(ctx.baseUrl, ctx.superadminToken, { ...admin, profile: 'admin' }).catch(() => undefined);
  await login(session);
  const { reports, audit } = auditorOf(page);

  await openRoute(session, '/configuracoes/meta');
  await page.getByTestId('settings-meta-save').waitFor({ state: 'visible' });
  await audit('settings-meta');
  // Without the business token, listing the business accounts says so.
  await page.getByTestId('settings-meta-verify-bms').click();
  const error = page.getByTestId('settings-meta-bms-error');
  await error.waitFor({ state: 'visible' });
  await audit('settings-meta-bms-missing');

  await openRoute(session, '/configuracoes/hub');
  await page.getByTestId('settings-hub-save').waitFor({ state: 'visible' });
  await page.getByTestId('settings-hub-token-missing').waitFor({ state: 'visible' });
  await audit('settings-hub');

  expect(reports, reports.join('\n\n')).toEqual([]);
});

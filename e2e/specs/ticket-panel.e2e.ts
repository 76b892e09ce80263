/**
 * The ticket panel (issue 14, task G): three Telegram customers write; an admin opens /painel-atendimentos, finds
 * their pending tickets in the "no queue" column, selects them, resolves them in a batch and sees one result per
 * ticket; the tickets are closed on the server. Then the settings screen with the company toggles: one is switched and
 * saved with the spec's toast. Every screen and dialog gets a screenshot (/tmp/shots/panel/) and the axe audit; all
 * are audited before the test fails.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { apiRequest, createTestUser } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { connectedTelegramChannel, postUpdate, textUpdate } from '../support/telegram.js';
import { logIn, waitForToast } from '../support/ui.js';
import { waitFor } from '../support/wait.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/panel');

/**
 * Today as the panel's date input shows it in pt-BR (product-spec §5: dd/MM/yyyy), in the tenant's zone (the seeded
 * America/Sao_Paulo): the panel opens on the tenant's today, which differs from this browser's (UTC) for three hours
 * after midnight UTC.
 */
const today = () => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date()).split('-');
  return `${parts[2]}/${parts[1]}/${parts[0]}`;
};

browserTest(
  'an admin resolves tickets in a batch from the ticket panel and switches a company toggle, each screen accessible',
  async (session) => {
    const { page } = session;
    const { token } = await connectedTelegramChannel(ctx);
    const admin = await createTestUser(ctx, {
      emailPrefix: 'admin-panel',
      name: uniqueName('Admin Painel'),
      profile: 'admin',
    });

    const customers = [0, 1, 2].map(() => `Lia${crypto.randomInt(10_000, 99_999)}`);
    for (const name of customers) {
      expect(
        await postUpdate(
          ctx.telegramApiRoot,
          token,
          textUpdate(crypto.randomInt(1e8, 9e8), name, 'Oi, preciso de ajuda', { lastName: 'Painel' }),
        ),
      ).toBe(200);
    }
    const panelQuery = `/dash-tickets-queues?dateStart=2000-01-01&dateEnd=2100-01-01`;
    const mine = await waitFor('the three tickets in the panel endpoint', async () => {
      const rows = await apiRequest<TicketDto[]>(ctx.baseUrl, 'GET', panelQuery, { token: ctx.superadminToken });
      const found = rows.filter((row) => customers.some((name) => row.contact.name.startsWith(name)));
      return found.length === 3 ? found : undefined;
    });

    const { reports, audit } = screenAuditor(page, shot);

    await logIn(session, ctx, admin);
    await page.getByTestId('nav-painel').first().click();
    await page.getByTestId('panel-groups').waitFor({ state: 'visible' });
    expect(await page.getByTestId('panel-date-start').inputValue()).toBe(today());
    for (const ticket of mine) await page.getByTestId(`panel-ticket-${ticket.id}`).waitFor({ state: 'visible' });
    await page
      .getByRole('alert')
      .first()
      .waitFor({ state: 'hidden', timeout: 15_000 })
      .catch(() => undefined);
    await audit('panel');

    // Group by agent, then back by queue.
    await page.getByTestId('panel-group-by').getByText('Atendente').click();
    await page.getByTestId('panel-groups').waitFor({ state: 'visible' });
    await audit('panel-by-agent');
    await page.getByTestId('panel-group-by').getByText('Fila').click();

    for (const ticket of mine) await page.getByTestId(`panel-ticket-${ticket.id}`).check();
    expect(await page.getByTestId('panel-selected').textContent()).toMatch(/^Selecionados: 3 de \d+$/);
    await page.getByTestId('panel-action-close').click();
    await page.getByTestId('panel-confirm-close').waitFor({ state: 'visible' });
    await audit('panel-confirm-close', { include: '.mantine-Modal-content' });
    await page.getByTestId('panel-confirm-close').click();
    await page.getByTestId('panel-run-progress').filter({ hasText: '3 de 3' }).waitFor({ state: 'visible' });
    for (const ticket of mine) {
      expect(await page.getByTestId(`panel-result-${ticket.id}`).textContent()).toContain('Concluído');
    }
    await page.getByTestId('panel-run-close').waitFor({ state: 'visible' });
    await audit('panel-results', { include: '.mantine-Modal-content' });
    await page.getByTestId('panel-run-close').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    const statuses = await waitFor('the tickets closed', async () => {
      const rows = await apiRequest<TicketDto[]>(ctx.baseUrl, 'GET', panelQuery, { token: ctx.superadminToken });
      const now = rows.filter((row) => mine.some((ticket) => ticket.id === row.id)).map((row) => row.status);
      return now.every((status) => status === 'closed') ? now : undefined;
    });
    expect(statuses).toEqual(['closed', 'closed', 'closed']);

    // The settings screen with the company toggles.
    await page.getByTestId('nav-configuracoes').first().click();
    await page.getByTestId('tenant-flags-visibility').waitFor({ state: 'visible' });
    const toggle = page.getByTestId('tenant-flag-showClosedForAll');
    const before = await toggle.isChecked();
    await toggle.click({ force: true });
    await waitForToast(page, 'Configuração alterada!');
    expect(await toggle.isChecked()).toBe(!before);
    await page
      .getByRole('alert')
      .first()
      .waitFor({ state: 'hidden', timeout: 15_000 })
      .catch(() => undefined);
    await audit('settings');
    await toggle.click({ force: true });
    await waitFor('the toggle back', async () => (await toggle.isChecked()) === before);

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

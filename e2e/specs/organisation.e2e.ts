/**
 * A supervisor organises the service (issue 14): creates a queue on /filas, a team with a member on /equipes and a
 * coloured tag on /etiquetas, applies the tag to a contact on /contatos, and filters the ticket list by it: only the
 * ticket of the tagged contact stays. Every screen and dialog gets a screenshot (/tmp/shots/org/) and the axe audit;
 * all are audited before the test fails, so one run names every violation.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { ContactDto, TicketDto } from '@conversa/shared';
import { apiRequest, createUser, loginThroughApi } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { connectedTelegramChannel } from '../support/telegram.js';
import { openRoute, submitLogin, waitForShell, waitForToast } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/org');

browserTest(
  'a supervisor creates a queue, a team with a member and a tag, tags a contact and filters tickets by the tag',
  async (session) => {
    const { page } = session;
    const email = uniqueEmail('org-super');
    const password = strongPassword();
    await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: uniqueName('Sofia Super'),
      email,
      password,
      profile: 'super',
    });
    const memberName = uniqueName('Marcos Membro');
    const member = await createUser(ctx.baseUrl, ctx.superadminToken, {
      name: memberName,
      email: uniqueEmail('org-member'),
      password: strongPassword(),
      profile: 'user',
    });
    // Two customers with a ticket each, assigned to the supervisor: only the tagged one may stay under the filter.
    const { channel } = await connectedTelegramChannel(ctx);
    const login = await loginThroughApi(ctx.baseUrl, ctx.captchaSecret, email, password);
    const makeCustomer = async (name: string) => {
      const contact = await apiRequest<ContactDto>(ctx.baseUrl, 'POST', '/contacts', {
        token: login.token,
        // A Telegram chat id: tickets open only on a channel where the contact has an id (ERR_CONTACT_NO_CHANNEL_ID).
        body: {
          name,
          number: `55319${crypto.randomInt(10_000_000, 99_999_999)}`,
          telegramId: String(crypto.randomInt(1_000_000, 2_000_000_000)),
        },
      });
      const ticket = await apiRequest<TicketDto>(ctx.baseUrl, 'POST', '/tickets', {
        token: login.token,
        body: {
          contactId: contact.id,
          userId: login.userId,
          channel: 'telegram',
          channelId: channel.id,
          status: 'open',
        },
      });
      return { contact, ticket };
    };
    const tagged = await makeCustomer(uniqueName('Clara Etiquetada'));
    const plain = await makeCustomer(uniqueName('Pedro Sem Etiqueta'));

    await openRoute(session, '/login');
    await submitLogin(session, ctx, email, password);
    await waitForShell(page, 'super');

    const { reports, audit } = screenAuditor(page, shot);
    const dialogClosed = () => page.getByRole('dialog').waitFor({ state: 'hidden' });

    // Queues: the menu leads there; empty state or list, then a new queue through the modal.
    await page.getByTestId('nav-filas').click();
    await page.getByTestId('queues-table').waitFor({ state: 'visible' });
    await audit('queues');
    await page.getByTestId('queues-new').click();
    await page.getByTestId('queue-form-name').waitFor({ state: 'visible' });
    await page.getByTestId('queue-form-submit').click();
    await page.getByText('Nome da fila é obrigatório').waitFor({ state: 'visible' });
    await audit('queue-form', { include: '[role="dialog"]' });
    const queueName = uniqueName('Fila Vendas');
    await page.getByTestId('queue-form-name').fill(queueName);
    await page.getByTestId('queue-form-submit').click();
    await dialogClosed();
    await page.getByTestId('queues-table').getByText(queueName).waitFor({ state: 'visible' });
    await audit('queues-with-row');

    // Teams: a new team, then its members dialog adds the agent.
    await page.getByTestId('nav-equipes').click();
    await page.getByTestId('teams-table').waitFor({ state: 'visible' });
    await audit('teams');
    await page.getByTestId('teams-new').click();
    await page.getByTestId('team-form-name').waitFor({ state: 'visible' });
    await audit('team-form', { include: '[role="dialog"]' });
    const teamName = uniqueName('Equipe Plantao');
    await page.getByTestId('team-form-name').fill(teamName);
    await page.getByTestId('team-form-submit').click();
    await dialogClosed();
    const teamRow = page.locator('[data-testid^="team-row-"]').filter({ hasText: teamName });
    await teamRow.waitFor({ state: 'visible' });
    const teamId = Number((await teamRow.getAttribute('data-testid'))!.replace('team-row-', ''));
    await page.getByTestId(`team-members-${teamId}`).click();
    await page.getByTestId('team-members-empty').waitFor({ state: 'visible' });
    await page.getByTestId('team-member-select').click();
    await page.getByRole('option', { name: new RegExp(memberName) }).click();
    await page.getByTestId('team-member-add').click();
    await page.getByTestId(`team-member-${member.id}`).waitFor({ state: 'visible' });
    await audit('team-members', { include: '[role="dialog"]' });
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect.poll(() => page.getByTestId(`team-count-${teamId}`).textContent()).toBe('1 membro');

    // Tags: a coloured tag from a swatch.
    await page.getByTestId('nav-etiquetas').click();
    await page.getByTestId('tags-table').waitFor({ state: 'visible' });
    await audit('tags');
    await page.getByTestId('tags-new').click();
    await page.getByTestId('tag-form-name').waitFor({ state: 'visible' });
    const tagName = uniqueName('VIP');
    await page.getByTestId('tag-form-name').fill(tagName);
    await page.getByTestId('tag-form-color').click();
    await page.locator('[aria-label="#2b8a3e"]').first().click();
    await expect.poll(() => page.getByTestId('tag-form-color').inputValue()).toBe('#2b8a3e');
    await audit('tag-form', { include: '[role="dialog"]' });
    await page.getByTestId('tag-form-submit').click();
    await dialogClosed();
    const tagRow = page.locator('[data-testid^="tag-row-"]').filter({ hasText: tagName });
    await tagRow.waitFor({ state: 'visible' });
    const tagId = Number((await tagRow.getAttribute('data-testid'))!.replace('tag-row-', ''));
    await audit('tags-with-row');

    // The tag on a contact, from the contact form's coloured picker.
    await page.getByTestId('nav-contatos').click();
    await page.getByTestId('contacts-search').fill(tagged.contact.name);
    await page.getByTestId(`contact-edit-${tagged.contact.id}`).click();
    await page.getByTestId('contact-form-tags').click();
    await page.getByRole('option', { name: tagName }).click();
    await page.getByTestId(`tag-pill-${tagId}`).waitFor({ state: 'visible' });
    await page.keyboard.press('Escape'); // closes the picker's dropdown, not the dialog
    await audit('contact-form-tags', { include: '[role="dialog"]' });
    await page.getByTestId('contact-form-submit').click();
    await dialogClosed();
    await page.getByTestId(`contact-row-${tagged.contact.id}`).getByText(tagName).waitFor({ state: 'visible' });

    // The ticket list's tag filter: only the tagged contact's ticket stays.
    await page.getByTestId('nav-atendimento').click();
    await page.getByTestId(`ticket-row-${tagged.ticket.id}`).waitFor({ state: 'visible' });
    await page.getByTestId(`ticket-row-${plain.ticket.id}`).waitFor({ state: 'visible' });
    // A ticket shows its contact's tags (a coloured swatch named for the tag).
    await page
      .getByTestId(`ticket-row-${tagged.ticket.id}`)
      .getByRole('img', { name: tagName })
      .waitFor({ state: 'visible' });
    expect(await page.getByTestId(`ticket-row-${plain.ticket.id}`).getByRole('img', { name: tagName }).count()).toBe(0);
    await page.getByTestId('tickets-filter-open').click();
    await page.getByTestId('tickets-filter-tags').click();
    await page.getByRole('option', { name: tagName }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('tickets-filter-apply').click();
    await dialogClosed();
    await page.getByTestId(`ticket-row-${plain.ticket.id}`).waitFor({ state: 'detached' });
    await page.getByTestId(`ticket-row-${tagged.ticket.id}`).waitFor({ state: 'visible' });
    await audit('tickets-filtered-by-tag');

    // A tag carried by a contact cannot be deleted: the server's 409 text is shown.
    await page.getByTestId('nav-etiquetas').click();
    await page.getByTestId(`tag-delete-${tagId}`).click();
    await page.getByTestId('confirm-delete').click();
    await waitForToast(page, 'A etiqueta ainda possui contatos.');
    await page.getByTestId(`tag-row-${tagId}`).waitFor({ state: 'visible' });

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

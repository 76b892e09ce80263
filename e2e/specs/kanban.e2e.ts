/**
 * A supervisor sets up the kanban lanes on /lanes (required name, two lanes, reorder with the arrows), then an agent
 * opens the board (/kanban -> /kanban/kanbans), finds a contact with the search box and moves it by keyboard (Space,
 * ArrowRight, Space) from "Sem coluna" to the first lane; after a reload the card is still there and the server has
 * it. The tags board shows a tag's contacts, and a card opens its contact. Every screen gets a screenshot
 * (/tmp/shots/kanban/) and the axe audit; all are audited before the test fails, so one run names every violation.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { ContactDto, LaneDto } from '@conversa/shared';
import { apiRequest, createUser, loginThroughApi } from '../support/api.js';
import { e2eContext } from '../support/context.js';
import { strongPassword, uniqueEmail, uniqueName } from '../support/data.js';
import { screenAuditor, screenshotTo } from '../support/screens.js';
import { useBrowser } from '../support/suite.js';
import { openRoute, submitLogin, waitForRoute, waitForShell, waitForToast } from '../support/ui.js';

const ctx = e2eContext();
const browserTest = useBrowser();
const shot = screenshotTo('/tmp/shots/kanban');

/** Types the term in the board's search box and waits until the columns show only its results (one card). */
async function searchBoard(page: Page, term: string): Promise<void> {
  const box = page.getByTestId('kanban-search');
  if ((await box.inputValue()) !== term) {
    // The columns re-read with the term after a debounce: wait for that, not for a list that happens to hold one card.
    const searched = page.waitForResponse(
      (response) => response.url().includes('/contacts?') && response.url().includes('searchParam='),
    );
    await box.fill(term);
    await searched;
  }
  await page.waitForFunction(
    () =>
      document.querySelectorAll('[data-testid^="kanban-column-"] [role="status"]').length === 0 &&
      document.querySelectorAll('[data-testid^="kanban-card-"]').length === 1,
    undefined,
    { polling: 100 },
  );
}

browserTest(
  'a supervisor sets up lanes; an agent moves a contact between lanes by keyboard and the move is stored',
  async (session) => {
    const { page } = session;
    const superEmail = uniqueEmail('kanban-super');
    const agentEmail = uniqueEmail('kanban-agent');
    const password = strongPassword();
    for (const [email, profile] of [
      [superEmail, 'super'],
      [agentEmail, 'user'],
    ] as const) {
      await createUser(ctx.baseUrl, ctx.superadminToken, { name: uniqueName('Kanban'), email, password, profile });
    }
    const superLogin = await loginThroughApi(ctx.baseUrl, ctx.captchaSecret, superEmail, password);
    const contactName = uniqueName('Kamila Kanban');
    const contact = await apiRequest<ContactDto>(ctx.baseUrl, 'POST', '/contacts', {
      token: superLogin.token,
      body: { name: contactName, number: `55319${Math.floor(10_000_000 + Math.random() * 89_999_999)}` },
    });
    const tagName = uniqueName('Quente');
    const tag = await apiRequest<{ id: number }>(ctx.baseUrl, 'POST', '/tags/', {
      token: superLogin.token,
      body: { tag: tagName, color: '#1971c2', isActive: true },
    });
    await apiRequest(ctx.baseUrl, 'PUT', `/contact-tags/${contact.id}`, {
      token: superLogin.token,
      body: { tags: [tag.id] },
    });

    const { reports, audit } = screenAuditor(page, shot);
    const dialogClosed = () => page.getByRole('dialog').waitFor({ state: 'hidden' });

    // The supervisor: /lanes from the menu, a refused empty name, two lanes, the second moved up.
    await openRoute(session, '/login');
    await submitLogin(session, ctx, superEmail, password);
    await waitForShell(page, 'super');
    // Before any lane (the suite's server is fresh and only this spec makes lanes): the board's notice and its link.
    const noLanesYet =
      (await apiRequest<{ kanban: LaneDto[] }>(ctx.baseUrl, 'GET', '/kanban', { token: superLogin.token })).kanban
        .length === 0;
    if (noLanesYet) {
      await openRoute(session, '/kanban/kanbans');
      await page.getByTestId('kanban-no-lanes-link').waitFor({ state: 'visible' });
      await audit('board-no-lanes');
      const scheme = (value: string) =>
        page.evaluate((next) => document.documentElement.setAttribute('data-mantine-color-scheme', next), value);
      await scheme('dark');
      await audit('board-no-lanes-dark');
      await scheme('light');
    }
    await page.getByTestId('nav-lanes').click();
    await page.getByTestId('lanes-table').waitFor({ state: 'visible' });
    await audit('lanes');
    const laneNames = [uniqueName('Proposta'), uniqueName('Contato')];
    await page.getByTestId('lanes-new').click();
    await page.getByTestId('lane-form-submit').click();
    await page.getByText('Nome é obrigatório').waitFor({ state: 'visible' });
    await audit('lane-form', { include: '[role="dialog"]' });
    for (const [index, name] of laneNames.entries()) {
      if (index > 0) await page.getByTestId('lanes-new').click();
      await page.getByTestId('lane-form-name').fill(name);
      await page.getByTestId('lane-form-submit').click();
      await dialogClosed();
      await page.getByTestId('lanes-table').getByText(name).waitFor({ state: 'visible' });
    }
    const lanes = async () =>
      (await apiRequest<{ kanban: LaneDto[] }>(ctx.baseUrl, 'GET', '/kanban', { token: superLogin.token })).kanban;
    const contato = (await lanes()).find((lane) => lane.name === laneNames[1])!;
    await page.getByTestId(`lane-up-${contato.id}`).click();
    await waitForToast(page, `Coluna ${laneNames[1]} movida!`);
    const ordered = (await lanes()).map((lane) => lane.name).filter((name) => laneNames.includes(name));
    expect(ordered).toEqual([laneNames[1], laneNames[0]]);
    await audit('lanes-with-rows');

    // The agent: the board from the menu, the contact found by search, moved by keyboard into the first lane.
    await page.evaluate(() => window.localStorage.clear());
    await openRoute(session, '/login');
    await submitLogin(session, ctx, agentEmail, password);
    await waitForShell(page, 'user');
    await page.getByTestId('nav-kanban').click();
    await waitForRoute(page, '/kanban/kanbans');
    await page.getByTestId('kanban-column-none').waitFor({ state: 'visible' });
    const firstLane = (await lanes())[0]!;
    await searchBoard(page, contactName);
    const card = page.getByTestId('kanban-column-none').getByTestId(`kanban-card-${contact.id}`);
    await card.waitFor({ state: 'visible' });
    await audit('board-lanes');
    await card.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(100);
    // "Sem coluna" comes first: one step right is the first lane.
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(100);
    // The announcement names the target column. The screenshot keeps the viewport: a full-page one resizes the
    // window, which cancels a drag.
    await page.getByText(`sobre a coluna ${firstLane.name}`).waitFor({ state: 'attached' });
    await shot(page, 'board-keyboard-drag', { fullPage: false });
    await page.keyboard.press('Space');
    await waitForToast(page, `${contactName} movido para ${firstLane.name}`);
    await page
      .getByTestId(`kanban-column-${firstLane.id}`)
      .getByTestId(`kanban-card-${contact.id}`)
      .waitFor({ state: 'visible' });
    await audit('board-moved');
    const stored = await apiRequest<ContactDto>(ctx.baseUrl, 'GET', `/contacts/${contact.id}`, {
      token: superLogin.token,
    });
    expect(stored.kanban).toBe(firstLane.id);

    // Stored: after a reload the card is in the lane.
    await page.reload();
    await searchBoard(page, contactName);
    await page
      .getByTestId(`kanban-column-${firstLane.id}`)
      .getByTestId(`kanban-card-${contact.id}`)
      .waitFor({ state: 'visible' });

    // A card opens its contact.
    await page.getByTestId(`kanban-card-${contact.id}`).click();
    await page.getByTestId('kanban-contact').getByText(contactName).waitFor({ state: 'visible' });
    await audit('board-contact', { include: '[role="dialog"]' });
    await page.keyboard.press('Escape');
    await dialogClosed();

    // The tags board: the tag's column holds the contact.
    await page.getByTestId('kanban-tab-tags').click();
    await waitForRoute(page, '/kanban/tags');
    await searchBoard(page, contactName);
    await page
      .getByTestId(`kanban-column-${tag.id}`)
      .getByTestId(`kanban-card-${contact.id}`)
      .waitFor({ state: 'visible' });
    await audit('board-tags');

    expect(reports, reports.join('\n\n')).toEqual([]);
  },
);

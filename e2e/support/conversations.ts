/** The ticket list of the attendance screen (/atendimento): its pending tab, a customer's ticket row, accepting it. */
import type { Locator, Page } from 'playwright-core';
import type { Session } from './browser.js';
import { openRoute, waitForRoute } from './ui.js';

/** Opens the attendance screen on its pending tab. */
export async function openPendingTab(session: Session): Promise<void> {
  await openRoute(session, '/atendimento');
  await session.page.getByTestId('tickets-subtab-pending').click();
}

/** Waits for the row of `customer`'s ticket in the list shown (it arrives live) and reads the ticket's id. */
export async function ticketRowOf(page: Page, customer: string): Promise<{ row: Locator; ticketId: number }> {
  const row = page.locator('[data-testid^="ticket-row-"]').filter({ hasText: customer });
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  const ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-row-', ''));
  return { row, ticketId };
}

/** Accepts a pending ticket from its row and waits for its chat's route. */
export async function acceptTicket(page: Page, ticketId: number): Promise<void> {
  await page.getByTestId(`ticket-accept-${ticketId}`).click();
  await waitForRoute(page, `/atendimento/${ticketId}`);
}

/** Waits for `customer`'s pending ticket, accepts it and waits for its chat; answers the ticket's id. */
export async function acceptTicketOf(page: Page, customer: string): Promise<number> {
  const { ticketId } = await ticketRowOf(page, customer);
  await acceptTicket(page, ticketId);
  return ticketId;
}

import { describe, expect, it } from 'vitest';
import { violatesVisibilityCombination } from './settings.js';
import { errorCatalogue } from './errors.js';

describe('settings rules', () => {
  it('refuses the three visibility settings all enabled', () => {
    expect(
      violatesVisibilityCombination({
        NotViewAssignedTickets: 'enabled',
        NotViewTicketsChatBot: 'enabled',
        DirectTicketsToWallets: 'enabled',
      }),
    ).toBe(true);
    expect(violatesVisibilityCombination({ NotViewAssignedTickets: 'enabled', NotViewTicketsChatBot: 'enabled' })).toBe(
      false,
    );
  });
  it('gives every error code a status and both texts', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(code).toMatch(/^ERR(OR)?_[A-Z_]+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.ptBR.length).toBeGreaterThan(3);
      expect(entry.en.length).toBeGreaterThan(3);
    }
  });
});

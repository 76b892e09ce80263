/** Contact rows for tests, in the shape of the API (packages/shared contactDtoSchema). */
import type { ContactDto } from '@conversa/shared';
import type { ContactListResponse } from '../lib/contacts-cache';

export function contactFixture(id: number, overrides: Partial<ContactDto> = {}): ContactDto {
  return {
    id,
    name: `Contact ${id}`,
    number: `55119${String(id).padStart(8, '0')}`,
    email: '',
    profilePicUrl: null,
    pushname: null,
    isGroup: false,
    cpf: null,
    birthdayDate: null,
    firstName: null,
    lastName: null,
    businessName: null,
    telegramId: null,
    messengerId: null,
    instagramPK: null,
    hubWhatsapp: null,
    kanban: null,
    blocked: false,
    chatbotBlocked: false,
    extraInfo: [],
    tags: [],
    wallets: [],
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export const contactPage = (
  contacts: ContactDto[],
  count = contacts.length,
  countCapped = false,
): ContactListResponse => ({
  contacts,
  count,
  countCapped,
  hasMore: false,
});

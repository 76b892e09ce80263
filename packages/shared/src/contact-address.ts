/**
 * The contact's id on a channel's provider (Telegram chats by id, Messenger and hub e-mail by messengerId, Instagram
 * by its PK, WhatsApp by number): what a send goes to. A contact without it cannot be written to on that channel, so
 * no ticket is opened there (issue 23). One rule for the send job, ticket creation and the new-ticket dialog.
 */
import type { ChannelType } from './channels.js';
import type { ContactIdentity } from './contacts.js';

export type ContactAddressFields = Pick<ContactIdentity, 'number' | 'telegramId' | 'messengerId' | 'instagramPK'>;

export function contactAddressOn(type: ChannelType, contact: ContactAddressFields): string | null {
  switch (type) {
    case 'telegram':
    case 'hub_telegram':
      return contact.telegramId;
    case 'messenger':
    case 'hub_facebook':
    case 'hub_email':
      // Hub e-mail contacts keep their address in messengerId (no contact field is keyed by e-mail).
      return contact.messengerId;
    case 'instagram':
    case 'hub_instagram':
      return contact.instagramPK;
    case 'waba':
      // A customer who hid the number behind a username is known by a business-scoped user id (waba.parse.ts).
      return contact.number ?? contact.messengerId;
    default:
      return contact.number;
  }
}

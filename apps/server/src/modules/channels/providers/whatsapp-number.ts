/**
 * One rule for WhatsApp numbers across the WhatsApp session and gateway channels (Baileys, whatsapp-web.js,
 * Evolution, Wuzapi), so a customer is one contact whichever kind of channel they write to.
 *
 * Brazilian ninth digit: a number `55 + DDD + 8 digits` whose first subscriber digit is 6-9 (a mobile; landlines
 * start with 2-5) is stored by these channels with the ninth digit, `55 + DDD + 9 + 8 digits`, the form Brazilian
 * numbers are written in since 2016. WhatsApp still addresses many older accounts by the 8-digit form: their senders
 * resolve the form WhatsApp knows (`whatsAppNumberForms`) before they send, so the stored number never changes. The
 * Cloud API and the hub keep the number as Meta gave it (`wa_id`: they send to it as it is); ingestion finds a contact
 * by either form (contacts.inbound.ts), so the two forms never split a customer in two.
 */
import { ninthDigitForms } from '../../contacts/index.js';

/** Digits with the Brazilian ninth digit added to 8-digit mobiles; other numbers unchanged. */
export function normalizeWhatsAppNumber(digits: string): string {
  const clean = digits.replace(/\D/g, '');
  if (/^55[1-9][1-9][6-9]\d{7}$/.test(clean)) return `${clean.slice(0, 4)}9${clean.slice(4)}`;
  return clean;
}

/**
 * The forms WhatsApp may know a number by: the stored form (ninth digit added) first and, for a Brazilian mobile, the
 * one without it. The two forms are the contacts module's rule (`ninthDigitForms`), which ingestion also uses to find
 * a contact by either form.
 */
export function whatsAppNumberForms(number: string): string[] {
  return ninthDigitForms(normalizeWhatsAppNumber(number));
}

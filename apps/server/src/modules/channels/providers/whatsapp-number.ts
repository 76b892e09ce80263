/**
 * One rule for WhatsApp numbers across the WhatsApp session and gateway channels (Baileys, whatsapp-web.js,
 * Evolution, Wuzapi), so a customer is one contact whichever kind of channel they write to.
 *
 * Brazilian ninth digit: a number is stored as WhatsApp gave it (a JID's digits). Many older Brazilian mobile accounts
 * are still addressed by WhatsApp in the 8-digit form (`55 + DDD + 8 digits`, 12 digits), others in the 9-digit form
 * written since 2016; a reply must reach the JID WhatsApp knows, so the stored form is never rewritten. Ingestion finds
 * a contact by either form (contacts.inbound.ts, `ninthDigitForms`), so the two forms never split a customer in two,
 * and the senders of these channels try the stored form first, then the other (`whatsAppNumberForms`), for a number
 * that was typed rather than received.
 */
import { ninthDigitForms } from '../../contacts/index.js';

/** The digits of a number as WhatsApp gave it (a 12-digit Brazilian JID stays 12 digits). */
export function normalizeWhatsAppNumber(digits: string): string {
  return digits.replace(/\D/g, '');
}

/**
 * The forms WhatsApp may know a number by: the stored form first and, for a Brazilian mobile, the other one (with or
 * without the ninth digit). The two forms are the contacts module's rule (`ninthDigitForms`), which ingestion also uses to find
 * a contact by either form.
 */
export function whatsAppNumberForms(number: string): string[] {
  return ninthDigitForms(normalizeWhatsAppNumber(number));
}

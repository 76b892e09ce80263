/**
 * One rule for WhatsApp numbers across every WhatsApp channel type (Baileys, whatsapp-web.js, Evolution, Wuzapi), so a
 * customer is one contact whichever kind of channel they write to.
 *
 * Brazilian ninth digit: a number `55 + DDD + 8 digits` whose first subscriber digit is 6-9 (a mobile; landlines
 * start with 2-5) is stored with the ninth digit, `55 + DDD + 9 + 8 digits`, the form Brazilian numbers are written in
 * since 2016. WhatsApp still addresses many older accounts by the 8-digit form: senders resolve the form WhatsApp knows
 * (`whatsAppNumberForms`) before they send, so the stored number never changes.
 */

/** Digits with the Brazilian ninth digit added to 8-digit mobiles; other numbers unchanged. */
export function normalizeWhatsAppNumber(digits: string): string {
  const clean = digits.replace(/\D/g, '');
  if (/^55[1-9][1-9][6-9]\d{7}$/.test(clean)) return `${clean.slice(0, 4)}9${clean.slice(4)}`;
  return clean;
}

/** The forms WhatsApp may know a number by: itself and, for a Brazilian mobile, the one without the ninth digit. */
export function whatsAppNumberForms(number: string): string[] {
  const canonical = normalizeWhatsAppNumber(number);
  if (/^55[1-9][1-9]9[6-9]\d{7}$/.test(canonical)) return [canonical, `${canonical.slice(0, 4)}${canonical.slice(5)}`];
  return [canonical];
}

/** Phone numbers: E.164 digits without '+', parsed as Brazilian when no country code is written. */
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The stored form of a typed number, or null when it is no valid phone number. Digits written without '+' are read
 * as a Brazilian number first; when that is not valid they are read as an international number (the contract sends
 * "digits with country code", e.g. 351912345678).
 */
export function normalizeNumber(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  const asBrazilian = parsePhoneNumberFromString(text, 'BR');
  if (asBrazilian?.isValid()) return asBrazilian.number.slice(1);
  if (text.startsWith('+')) return null;
  const digits = text.replace(/\D/g, '');
  const international = digits.length >= 8 ? parsePhoneNumberFromString(`+${digits}`) : undefined;
  return international?.isValid() ? international.number.slice(1) : null;
}

/**
 * The forms one Brazilian mobile number is written in: with the ninth digit (55 + DDD + 9 + 8 digits, the form since
 * 2016) and without it (55 + DDD + 8 digits, the form WhatsApp still knows many older accounts by). The number
 * itself first, then its other form; any other number (a landline: subscriber digits 2-5; another country) alone.
 */
export function ninthDigitForms(number: string): string[] {
  const digits = number.replace(/\D/g, '');
  if (/^55[1-9][1-9]9[6-9]\d{7}$/.test(digits)) return [digits, `${digits.slice(0, 4)}${digits.slice(5)}`];
  if (/^55[1-9][1-9][6-9]\d{7}$/.test(digits)) return [digits, `${digits.slice(0, 4)}9${digits.slice(4)}`];
  return [digits];
}

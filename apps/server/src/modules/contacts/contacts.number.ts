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

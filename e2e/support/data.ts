/** Unique test data per run, so runs never clash with each other or with data left by an earlier run. */
import crypto from 'node:crypto';

const RUN = `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${RUN}-${crypto.randomBytes(3).toString('hex')}@e2e.test`;
}

export function uniqueName(prefix: string): string {
  return `${prefix} ${RUN.toUpperCase()}${crypto.randomBytes(2).toString('hex').toUpperCase()}`;
}

/** Letters, digits and a symbol: passes the sign-up password rule (product-spec §5). */
export function strongPassword(): string {
  return `E2e#${crypto
    .randomBytes(6)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}9`;
}

function checkDigit(digits: number[]): number {
  const weightStart = digits.length + 1;
  const sum = digits.reduce((acc, digit, index) => acc + digit * (weightStart - index), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A random valid CPF (Brazilian tax id): nine random digits and their two check digits, formatted 000.000.000-00. */
export function generateCpf(): string {
  let base: number[];
  do {
    base = Array.from({ length: 9 }, () => crypto.randomInt(0, 10));
  } while (base.every((digit) => digit === base[0]));
  const first = checkDigit(base);
  const second = checkDigit([...base, first]);
  const d = [...base, first, second].join('');
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

/** A Brazilian mobile number, digits only: area code 11 and a 9-digit number starting with 9. */
export function generateMobilePhone(): string {
  return `119${String(crypto.randomInt(10_000_000, 100_000_000))}`;
}

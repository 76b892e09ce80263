/** Password hashing (argon2id) and opaque-token helpers. */
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

export const randomToken = (bytes = 32): string => crypto.randomBytes(bytes).toString('base64url');
export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');

/** A strong generated password: letters, digits and a symbol, as the sign-up rule asks. */
export function generatePassword(): string {
  return `${crypto.randomBytes(15).toString('base64url')}#${crypto.randomInt(10, 99)}`;
}

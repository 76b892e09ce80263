/**
 * Signing secrets: from the environment, else generated on first start and persisted under DATA_DIR with mode 600.
 * There is no default secret anywhere.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Secrets {
  jwtSecret: string;
  captchaSecret: string;
  /**
   * Encrypts the auth state of stateful WhatsApp sessions at rest (AES-256-GCM). Nodes that share a database must
   * share it (`SESSION_ENCRYPTION_KEY`, or the same secrets file): another node resumes a session with it.
   */
  sessionKey: string;
}

export function loadSecrets(
  dataDir: string,
  fromEnv: { jwtSecret?: string | undefined; sessionKey?: string | undefined },
): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) {
    stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
  }
  const secrets: Secrets = {
    jwtSecret: fromEnv.jwtSecret ?? stored.jwtSecret ?? crypto.randomBytes(48).toString('base64url'),
    captchaSecret: stored.captchaSecret ?? crypto.randomBytes(48).toString('base64url'),
    sessionKey: fromEnv.sessionKey ?? stored.sessionKey ?? crypto.randomBytes(32).toString('base64url'),
  };
  const toStore = {
    ...stored,
    captchaSecret: secrets.captchaSecret,
    ...(fromEnv.jwtSecret ? {} : { jwtSecret: secrets.jwtSecret }),
    ...(fromEnv.sessionKey ? {} : { sessionKey: secrets.sessionKey }),
  };
  if (JSON.stringify(toStore) !== JSON.stringify(stored)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(toStore, null, 2), { mode: 0o600 });
  }
  fs.chmodSync(file, 0o600);
  return secrets;
}

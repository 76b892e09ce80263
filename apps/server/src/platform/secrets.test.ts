import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecrets } from './secrets.js';

describe('secrets', () => {
  it('generates strong secrets once, persists them with mode 600 and reuses them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-secrets-'));
    const first = loadSecrets(dir, {});
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(48);
    expect(first.captchaSecret).not.toEqual(first.jwtSecret);
    expect(first.sessionKey.length).toBeGreaterThanOrEqual(43);
    const file = path.join(dir, 'secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecrets(dir, {})).toEqual(first);
  });
  it('prefers the environment and does not store its secret', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-secrets-'));
    const fromEnv = 'x'.repeat(40);
    expect(loadSecrets(dir, { jwtSecret: fromEnv }).jwtSecret).toBe(fromEnv);
    expect(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')).not.toContain(fromEnv);
    const sessionKey = 'k'.repeat(43);
    expect(loadSecrets(dir, { sessionKey }).sessionKey).toBe(sessionKey);
    expect(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')).not.toContain(sessionKey);
  });
});

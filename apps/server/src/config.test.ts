import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.loginCaptcha).toBe(true);
    expect(config.dataDir.endsWith('data')).toBe(true);
    expect(config.jwtSecret).toBeUndefined();
  });
  it('turns the captcha off only with an explicit false', () => {
    expect(loadConfig({ LOGIN_CAPTCHA: 'false' }).loginCaptcha).toBe(false);
    expect(loadConfig({ LOGIN_CAPTCHA: 'true' }).loginCaptcha).toBe(true);
  });
  it('trusts no proxy unless told which', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
  });
  it('names the offending variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });
});

import { describe, expect, it } from 'vitest';
import { browserPortuguese, normalizeLocale, startLocale } from './i18n';

describe('start language', () => {
  it('a browser that says pt-BR starts in pt-br', () => {
    expect(startLocale(null, ['pt-BR', 'en-US'])).toBe('pt-br');
    expect(startLocale(null, ['en-US', 'pt_BR'])).toBe('pt-br');
  });

  it('pt, pt-PT and other Portuguese regions start in pt', () => {
    expect(startLocale(null, ['pt-PT'])).toBe('pt');
    expect(startLocale(null, ['pt'])).toBe('pt');
    expect(startLocale(null, ['pt-AO', 'pt-BR'])).toBe('pt');
  });

  it('a browser without Portuguese gets the default pt (the spec: stored language, else pt)', () => {
    expect(startLocale(null, ['en-US', 'de'])).toBe('pt');
    expect(startLocale(null, [])).toBe('pt');
    expect(browserPortuguese(undefined)).toBeNull();
  });

  it('the stored language wins over the browser', () => {
    expect(startLocale('en-us', ['pt-BR'])).toBe('en-us');
    expect(startLocale('pt', ['pt-BR'])).toBe('pt');
    expect(startLocale('garbage', ['pt-BR'])).toBe('pt-br');
  });

  it('normalizes stored and browser codes', () => {
    expect(normalizeLocale('pt-BR')).toBe('pt-br');
    expect(normalizeLocale('pt-PT')).toBe('pt');
    expect(normalizeLocale('es_419')).toBe('es-419');
  });
});

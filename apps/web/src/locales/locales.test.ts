/** Every locale has every key pt-br has, and every catalogue code has its `errors.<CODE>` text everywhere. */
import { describe, expect, it } from 'vitest';
import { errorCodes, LOCALES } from '@conversa/shared';

const files = import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });
const locale = (code: string) => {
  const file = files[`./${code}.json`];
  if (!file) throw new Error(`missing src/locales/${code}.json`);
  return file;
};

function flatten(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object') for (const [k, v] of flatten(value, path)) out.set(k, v);
      else out.set(path, value);
    }
  }
  return out;
}

/** Plural forms differ per language (pl, ru have more); compare their base key. */
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
const placeholders = (text: unknown) => [...String(text).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

const reference = flatten(locale('pt-br'));

describe('locale files', () => {
  it('exist for the 11 locales and nothing else', () => {
    expect(
      Object.keys(files)
        .map((f) => f.slice(2, -5))
        .sort(),
    ).toEqual([...LOCALES].sort());
  });

  for (const code of LOCALES) {
    it(`${code} has every key pt-br has, each a non-empty text with the same placeholders`, () => {
      const keys = flatten(locale(code));
      const bases = new Set([...keys.keys()].map(baseKey));
      const missing = [...reference.keys()].filter(
        (key) => !keys.has(key) && !(baseKey(key) !== key && bases.has(baseKey(key))),
      );
      expect(missing).toEqual([]);
      for (const [key, value] of keys) {
        expect(typeof value === 'string' && value.trim().length > 0, `${code}: ${key} is empty`).toBe(true);
        const ref = reference.get(key) ?? reference.get(`${baseKey(key)}_other`);
        if (ref !== undefined) expect(placeholders(value), `${code}: ${key} placeholders`).toEqual(placeholders(ref));
      }
    });

    it(`${code} translates every error code of the catalogue`, () => {
      const keys = flatten(locale(code));
      expect(errorCodes.filter((errorCode) => !keys.has(`errors.${errorCode}`))).toEqual([]);
    });
  }
});

/** Number normalisation and the import's row rules, without a database. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareImportRow } from './contacts.import.rows.js';
import { removeOlderThan } from './contacts.jobs.js';
import { ninthDigitForms, normalizeNumber } from './contacts.number.js';

describe('normalizeNumber', () => {
  it('stores E.164 digits without +, reading numbers without a country code as Brazilian', () => {
    for (const input of [
      '5511912345678',
      '+55 (11) 91234-5678',
      '(11) 91234-5678',
      '011 91234-5678',
      ' 11912345678 ',
    ]) {
      expect(normalizeNumber(input), input).toBe('5511912345678');
    }
    expect(normalizeNumber('11 1234-5678')).toBe('551112345678');
    expect(normalizeNumber('+1 202 555 0143')).toBe('12025550143');
    expect(normalizeNumber('351912345678')).toBe('351912345678');
  });

  it('refuses what is no phone number', () => {
    for (const input of ['', '123', 'abc', '+55 11 1', '+999 123456789', '0000000000000000000']) {
      expect(normalizeNumber(input), input).toBeNull();
    }
  });

  it('refuses a possible but invalid number instead of storing it (no area code 00 in Brazil)', () => {
    // Shaped like a Brazilian mobile, so it is "possible"; `550912345678` must never be stored for it.
    for (const input of ['(00) 91234-5678', '00 91234-5678', '(00) 1234-5678']) {
      expect(normalizeNumber(input), input).toBeNull();
    }
  });
});

describe('prepareImportRow', () => {
  const row = (values: Partial<Parameters<typeof prepareImportRow>[0]>) =>
    prepareImportRow({ row: 2, name: 'Ana', number: '11912345678', email: '', cpf: '', birthday: '', ...values });

  it('turns a good row into contact columns', () => {
    expect(row({ email: 'ANA@X.COM', cpf: '529.982.247-25', birthday: '7/5/1990' })).toEqual({
      name: 'Ana',
      number: '5511912345678',
      email: 'ana@x.com',
      cpf: '529.982.247-25',
      birthdayDate: '1990-05-07',
    });
    expect(row({ birthday: new Date(Date.UTC(2000, 11, 31)) })).toMatchObject({ birthdayDate: '2000-12-31' });
  });

  it('names the reason and the offending value of a bad row', () => {
    expect(row({ name: '' })).toEqual({ row: 2, reason: 'ERR_VALIDATION', value: '11912345678' });
    expect(row({ number: '' })).toEqual({ row: 2, reason: 'ERR_VALIDATION', value: 'Ana' });
    expect(row({ number: '12' })).toEqual({ row: 2, reason: 'ERR_WAPP_INVALID_CONTACT', value: '12' });
    expect(row({ cpf: '123' })).toEqual({ row: 2, reason: 'ERR_INVALID_CPF_CNPJ', value: '123' });
    expect(row({ email: 'nope' })).toEqual({ row: 2, reason: 'ERR_VALIDATION', value: 'nope' });
    expect(row({ birthday: '31/02/1990' })).toEqual({ row: 2, reason: 'ERR_VALIDATION', value: '1990-02-31' });
  });
});

describe('removeOlderThan', () => {
  it('removes only the files older than the given age', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contacts-files-'));
    fs.writeFileSync(path.join(dir, 'old.csv'), 'x');
    fs.writeFileSync(path.join(dir, 'new.csv'), 'x');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(dir, 'old.csv'), hourAgo, hourAgo);
    expect(await removeOlderThan(dir, 3600_000)).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(['new.csv']);
    expect(await removeOlderThan(path.join(dir, 'missing'), 0)).toBe(0);
    fs.rmSync(dir, { recursive: true });
  });
});

describe('ninthDigitForms', () => {
  it('a Brazilian mobile in either form: itself first, then the other; landlines and other countries alone', () => {
    expect(ninthDigitForms('556199998888')).toEqual(['556199998888', '5561999998888']);
    expect(ninthDigitForms('5561999998888')).toEqual(['5561999998888', '556199998888']);
    expect(ninthDigitForms('+55 (11) 98888-7777')).toEqual(['5511988887777', '551188887777']);
    expect(ninthDigitForms('551133334444')).toEqual(['551133334444']);
    expect(ninthDigitForms('14155550123')).toEqual(['14155550123']);
    // A 9 followed by a landline digit is no mobile with a ninth digit.
    expect(ninthDigitForms('5511933334444')).toEqual(['5511933334444']);
  });
});

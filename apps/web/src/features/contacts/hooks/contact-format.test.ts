import { describe, expect, it } from 'vitest';
import { resolveDownloadLink } from '../api/contact-transfer';
import { formatContactNumber } from '../../../lib/contact-form';
import { contactInitials, formatContactCount } from './contact-format';
import { exampleCsv } from './example-csv';

describe('contact formatting', () => {
  it.each([
    ['5511912345678', '+55 (11) 91234-5678'],
    ['551131234567', '+55 (11) 3123-4567'],
    ['351912345678', '+351912345678'],
    ['14155550123', '+14155550123'],
    [null, ''],
  ])('formats %s as %s', (number, text) => {
    expect(formatContactNumber(number)).toBe(text);
  });

  it('leaves group ids alone', () => {
    expect(formatContactNumber('120363025246125486', true)).toBe('120363025246125486');
  });

  it('reads a capped count as 10.000+ in Portuguese and 10,000+ in English', () => {
    expect(formatContactCount(10_000, true, 'pt-br')).toBe('10.000+');
    expect(formatContactCount(10_000, true, 'en-us')).toBe('10,000+');
    expect(formatContactCount(1234, false, 'pt')).toBe('1.234');
  });

  it('takes the initials of the first and last word', () => {
    expect(contactInitials('maria da silva')).toBe('MS');
    expect(contactInitials('Édson')).toBe('É');
  });

  it('writes the example CSV with the columns the server reads', () => {
    expect(exampleCsv('pt-br').split('\r\n')[0]).toBe('Nome,Número,E-mail');
    expect(exampleCsv('en-gb').split('\r\n')[0]).toBe('Name,Number,Email');
  });

  it('resolves the download link on the API origin', () => {
    expect(resolveDownloadLink('/api/contacts/export/abc.csv', '/api', 'https://app.example.com')).toBe(
      'https://app.example.com/api/contacts/export/abc.csv',
    );
    expect(resolveDownloadLink('/contacts/export/abc.csv', '/api', 'https://app.example.com')).toBe(
      'https://app.example.com/api/contacts/export/abc.csv',
    );
    expect(resolveDownloadLink('/api/x.xlsx', 'https://api.example.com/api', 'https://app.example.com')).toBe(
      'https://api.example.com/api/x.xlsx',
    );
    expect(resolveDownloadLink('https://cdn.example.com/x.xlsx')).toBe('https://cdn.example.com/x.xlsx');
  });
});

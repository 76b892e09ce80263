/** The suite's own helpers: the CPF generator and the reading of a quoted-printable reset e-mail. */
import { describe, expect, it } from 'vitest';
import { isValidCpf } from '@conversa/shared';
import { generateCpf } from '../support/data.js';
import { decodeQuotedPrintable, findResetLink } from '../support/mail.js';

describe('e2e support', () => {
  it('generates valid, formatted CPFs', () => {
    for (let i = 0; i < 200; i += 1) {
      const cpf = generateCpf();
      expect(cpf).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
      expect(isValidCpf(cpf)).toBe(true);
    }
    expect(isValidCpf('529.982.247-25')).toBe(true);
  });

  it('finds a reset link split by quoted-printable soft line breaks', () => {
    const raw = [
      'To: someone@e2e.test',
      'Content-Transfer-Encoding: quoted-printable',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Ol=C3=A1, abra o link:',
      'http://127.0.0.1:35679/#/reset/1.yd0AD_RckC1PTsLYU92tEvHJAsaByraB=',
      'PrziSmzVm6Q',
      '',
    ].join('\r\n');
    expect(findResetLink(raw)).toBe('http://127.0.0.1:35679/#/reset/1.yd0AD_RckC1PTsLYU92tEvHJAsaByraBPrziSmzVm6Q');
    expect(decodeQuotedPrintable('Ol=C3=A1=\n!')).toBe('Olá!');
  });

  it('reads base64 parts of a multipart message', () => {
    const html = Buffer.from('<a href="http://h:1/#/reset/abc.DEF-_9">x</a>').toString('base64');
    const raw = [
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain',
      '',
      'no link here',
      '--b1',
      'Content-Type: text/html',
      'Content-Transfer-Encoding: base64',
      '',
      html,
      '--b1--',
      '',
    ].join('\n');
    expect(findResetLink(raw)).toBe('http://h:1/#/reset/abc.DEF-_9');
  });
});

import { describe, expect, it } from 'vitest';
import { formatCpfCnpj, formatPhone } from './masks';

describe('sign-up masks', () => {
  it('masks CPF and CNPJ as typed', () => {
    expect(formatCpfCnpj('529982247')).toBe('529.982.247');
    expect(formatCpfCnpj('52998224725')).toBe('529.982.247-25');
    expect(formatCpfCnpj('11222333000181')).toBe('11.222.333/0001-81');
  });
  it('masks mobile phones', () => {
    expect(formatPhone('11987654321')).toBe('(11) 98765-4321');
    expect(formatPhone('1134567890')).toBe('(11) 3456-7890');
  });
});

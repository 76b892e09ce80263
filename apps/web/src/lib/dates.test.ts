import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatPrice } from './dates';

describe('display formats', () => {
  it('formats dates and date-times day first, 24 h', () => {
    const date = new Date(2025, 0, 31, 18, 5, 9);
    expect(formatDate(date)).toBe('31/01/2025');
    expect(formatDateTime(date)).toBe('31/01/2025 18:05:09');
    expect(formatDate(null)).toBe('');
  });

  it('formats numbers and prices the pt-BR way', () => {
    expect(formatNumber(1234.5)).toBe('1.234,50');
    expect(formatNumber(0.12345)).toBe('0,123');
    expect(formatPrice(99.9).replace(/\s/g, ' ')).toBe('R$ 99,90');
  });
});

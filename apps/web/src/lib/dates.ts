/** Display formats of product-spec §1: dates DD/MM/YYYY, date-times DD/MM/YYYY HH:mm:ss (24 h), pt-BR numbers. */
import dayjs from 'dayjs';

export const DATE_FORMAT = 'DD/MM/YYYY';
export const DATE_TIME_FORMAT = 'DD/MM/YYYY HH:mm:ss';

type DateInput = string | number | Date | null | undefined;

function format(value: DateInput, pattern: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(pattern) : '';
}

export const formatDate = (value: DateInput): string => format(value, DATE_FORMAT);
export const formatDateTime = (value: DateInput): string => format(value, DATE_TIME_FORMAT);

const numberFormat = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 3 });
const integerFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const priceFormat = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Decimal values: pt-BR grouping, 2 to 3 decimals. */
export const formatNumber = (value: number): string => numberFormat.format(value);
/** Counts (users, connections, days). */
export const formatInteger = (value: number): string => integerFormat.format(value);
/** Plan prices: R$ 1.234,50. */
export const formatPrice = (value: number): string => priceFormat.format(value);

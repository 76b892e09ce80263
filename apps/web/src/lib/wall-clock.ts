/**
 * Instants on the company's wall clock, whatever the browser's zone: the screens show dates in the tenant's time zone
 * (client-contract §12 sends `yyyy-MM-dd HH:mm` in that zone).
 */

/** `yyyy-MM-dd HH:mm` of an instant in `timeZone` (the browser's zone if that one is unknown). */
export function wallClock(value: string | Date, timeZone: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-CA', { ...options, timeZone }).formatToParts(date);
  } catch {
    parts = new Intl.DateTimeFormat('en-CA', options).formatToParts(date);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** `dd/MM/yyyy HH:mm` of an instant on the company's clock, as the lists show dates; '' without one. */
export function formatCompanyDateTime(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2})$/.exec(wallClock(iso, timeZone));
  return match ? `${match[3]}/${match[2]}/${match[1]} ${match[4]}` : '';
}

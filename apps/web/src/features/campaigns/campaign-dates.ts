/**
 * A campaign's start on the company's wall clock (client-contract §12: the form sends `yyyy-MM-dd HH:mm` in the
 * company's time zone; the server answers the instant as ISO). The screens show and edit it in that zone, whatever
 * the browser's.
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

/** The start as the screens show it: `dd/MM/yyyy HH:mm` on the company's clock; '' without one. */
export function formatCampaignStart(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const clock = wallClock(iso, timeZone);
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2})$/.exec(clock);
  return match ? `${match[3]}/${match[2]}/${match[1]} ${match[4]}` : '';
}

/** The form's day (YYYY-MM-DD) and time (HH:mm) of a start, on the company's clock. */
export function startInputs(iso: string | null, timeZone: string): { day: string; time: string } {
  const clock = iso ? wallClock(iso, timeZone) : '';
  const [day = '', time = ''] = clock.split(' ');
  return { day, time };
}

/** True when `yyyy-MM-dd HH:mm` on the company's clock is not after now (to the minute). */
export function isPastStart(start: string, timeZone: string, now: Date = new Date()): boolean {
  return start <= wallClock(now, timeZone);
}

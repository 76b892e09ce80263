/**
 * A batch's creation on the company's wall clock, as the campaigns list shows its dates (`dd/MM/yyyy HH:mm`,
 * whatever the browser's zone). The campaigns feature has the same formatting in campaign-dates.ts; features do not
 * import each other, so the two copies wait for a move to lib/dates.ts.
 */
export function formatCompanyDateTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
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
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`;
}

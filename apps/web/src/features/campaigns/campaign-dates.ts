/**
 * A campaign's start on the company's wall clock (client-contract §12: the form sends `yyyy-MM-dd HH:mm` in the
 * company's time zone; the server answers the instant as ISO). The screens show and edit it in that zone, whatever
 * the browser's.
 */

import { formatCompanyDateTime, wallClock } from '../../lib/wall-clock';

export { wallClock };

/** The start as the screens show it: `dd/MM/yyyy HH:mm` on the company's clock; '' without one. */
export const formatCampaignStart = (iso: string | null, timeZone: string): string =>
  formatCompanyDateTime(iso, timeZone);

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

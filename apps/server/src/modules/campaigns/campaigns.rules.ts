/**
 * The campaign rules of product-spec §5 and §8, in one place: who manages campaigns, which states may be edited or
 * scheduled, and the start date.
 */
import { CAMPAIGN_EDITABLE_STATUSES, parseScheduleDate, type CampaignStatus, type Profile } from '@conversa/shared';
import { fail } from '../../platform/http/errors.js';

/** The supervisor menu lists Campaigns (product-spec §2): supervisors and above manage them. */
export const CAMPAIGN_MANAGERS: readonly Profile[] = ['super', 'admin', 'superadmin'];
export const CAMPAIGN_MIN_PROFILE: Profile = 'super';

/** Only pending or canceled campaigns may be edited, scheduled or have their contacts changed. */
export function assertEditable(status: CampaignStatus): void {
  if (!CAMPAIGN_EDITABLE_STATUSES.includes(status)) throw fail('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
}

/**
 * The start instant of a form value (the company's wall clock or an ISO instant); null for none. A start that is no
 * date or is not after now answers ERROR_CAMPAIGN_DATE_NOT_VALID.
 */
export function startOf(value: string | null | undefined, timeZone: string, now = new Date()): Date | null {
  if (!value) return null;
  const start = parseScheduleDate(value, timeZone);
  if (!start || start.getTime() <= now.getTime()) throw fail('ERROR_CAMPAIGN_DATE_NOT_VALID');
  return start;
}

/**
 * A campaign message for one recipient: `{{name}}`, `{{firstName}}`, `{{number}}` and the contact's custom fields
 * (`{{<field name>}}`, its extra info) from the contact, then the placeholders every server text knows (`{{greeting}}`,
 * `{{protocol}}`, messages.placeholders.ts). Keys match without regard to case or inner spaces; an unknown key stays
 * as written, so a typo shows in the sent text rather than vanishing.
 */
import type { Queryable } from '../../platform/db/client.js';
import { renderForTicket } from '../messages/index.js';

export interface CampaignRecipientValues {
  tenantId: number;
  contactId: number;
  name: string;
  number: string | null;
  extraInfo: { name: string; value: string }[];
  /** The "number,var1,var2" line's values of the variable tabs: `{{var1}}`, `{{var2}}`... */
  vars?: string[];
}

const KEY = /\{\{\s*([^{}]{1,120}?)\s*\}\}/g;
const fold = (key: string): string => key.replace(/\s+/g, '').toLowerCase();

/** The contact's own values by folded key; the placeholders of messages.placeholders.ts are left to it. */
export function recipientValues(recipient: CampaignRecipientValues): Map<string, string> {
  const values = new Map<string, string>();
  for (const item of recipient.extraInfo) values.set(fold(item.name), item.value);
  recipient.vars?.forEach((value, i) => values.set(`var${i + 1}`, value));
  values.set('name', recipient.name);
  values.set('firstname', recipient.name.trim().split(/\s+/)[0] ?? '');
  values.set('number', recipient.number ?? '');
  return values;
}

export function substituteRecipient(text: string, recipient: CampaignRecipientValues): string {
  if (!text.includes('{{')) return text;
  const values = recipientValues(recipient);
  return text.replace(KEY, (match, key: string) => values.get(fold(key)) ?? match);
}

export async function renderCampaignText(
  tx: Queryable,
  text: string,
  recipient: CampaignRecipientValues,
  protocol: string,
): Promise<string> {
  const own = substituteRecipient(text, recipient);
  return renderForTicket(tx, { tenantId: recipient.tenantId, contactId: recipient.contactId, protocol }, own);
}

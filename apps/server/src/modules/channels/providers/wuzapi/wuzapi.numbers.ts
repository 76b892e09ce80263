/**
 * Which form of a number WhatsApp knows, per channel (Brazilian ninth digit, ../whatsapp-number.ts): Wuzapi sends to
 * `<Phone>@s.whatsapp.net` as given and a form WhatsApp does not know never arrives, so sends, mentions and number
 * checks ask `POST /user/check` with every form of the number and keep the answer. One cache for all of them.
 */
import type { ChannelCredentials } from '../../channels.adapter.js';
import { normalizeWhatsAppNumber, whatsAppNumberForms } from '../whatsapp-number.js';
import { wuzapiTarget, type WuzapiClient } from './wuzapi.client.js';
import { splitJid } from './wuzapi.parse.js';
import { wuzapiCheckSchema } from './wuzapi.schemas.js';

const FOUND_TTL_MS = 6 * 60 * 60 * 1000;
/** A number that is not on WhatsApp may join it: that answer is kept shorter. */
const MISSING_TTL_MS = 10 * 60 * 1000;
const KEPT_MAX = 10_000;

/** What /user/check said of a number: the form WhatsApp knows it by (digits), or null when it is not on WhatsApp. */
export interface WuzapiNumberLookup {
  exists: boolean;
  /** The form to address (the one WhatsApp knows; the form asked when it does not exist). */
  phone: string;
  /** The number as WhatsApp knows it (its JID's digits, the form to store), when it exists. */
  number: string | null;
}

export function createWuzapiNumbers(client: WuzapiClient) {
  const kept = new Map<string, { phone: string | null; until: number }>();
  const keyOf = (channel: ChannelCredentials, canonical: string) => `${channel.id}:${canonical}`;

  const answer = (canonical: string, phone: string | null): WuzapiNumberLookup =>
    phone
      ? { exists: true, phone, number: normalizeWhatsAppNumber(phone) }
      : { exists: false, phone: canonical, number: null };

  function keep(channel: ChannelCredentials, canonical: string, phone: string | null) {
    if (kept.size >= KEPT_MAX) kept.delete(kept.keys().next().value!);
    const ttl = phone ? FOUND_TTL_MS : MISSING_TTL_MS;
    kept.set(keyOf(channel, canonical), { phone, until: Date.now() + ttl });
  }

  /** Every number asked (digits), answered in one /user/check for those not kept. */
  async function lookupAll(channel: ChannelCredentials, numbers: string[]): Promise<Map<string, WuzapiNumberLookup>> {
    const result = new Map<string, WuzapiNumberLookup>();
    const ask: string[][] = [];
    for (const number of numbers) {
      const forms = whatsAppNumberForms(number);
      const canonical = forms[0]!;
      const known = kept.get(keyOf(channel, canonical));
      if (known && known.until > Date.now()) result.set(number, answer(canonical, known.phone));
      else ask.push(forms);
    }
    if (ask.length > 0) {
      const phones = [...new Set(ask.flat())];
      const checked = await client.call(
        wuzapiTarget(channel),
        'POST',
        '/user/check',
        { Phone: phones },
        wuzapiCheckSchema,
      );
      const onWhatsApp = new Set(
        checked.Users.filter((user) => user.IsInWhatsapp && user.JID).map((user) => splitJid(user.JID!).user),
      );
      for (const forms of ask) {
        const canonical = forms[0]!;
        const phone = forms.find((form) => onWhatsApp.has(form)) ?? null;
        keep(channel, canonical, phone);
        for (const number of numbers) {
          if (whatsAppNumberForms(number)[0] === canonical) result.set(number, answer(canonical, phone));
        }
      }
    }
    return result;
  }

  return {
    lookupAll,
    /** Whether a number is on WhatsApp and the form it is known by (always asks WhatsApp unless kept). */
    async lookup(channel: ChannelCredentials, number: string): Promise<WuzapiNumberLookup> {
      return (await lookupAll(channel, [number])).get(number)!;
    },
    /**
     * The `Phone` to send to: a group (or any JID) as it is, a number with one form as it is, a Brazilian mobile in
     * the form WhatsApp knows it by (the canonical form when WhatsApp knows neither).
     */
    async phoneFor(channel: ChannelCredentials, to: string): Promise<string> {
      if (to.includes('@')) return to;
      const forms = whatsAppNumberForms(to);
      if (forms.length === 1) return forms[0]!;
      return (await lookupAll(channel, [to])).get(to)!.phone;
    },
    /** phoneFor of several numbers (a mention's), the ones to check asked in one /user/check. */
    async phonesFor(channel: ChannelCredentials, numbers: string[]): Promise<string[]> {
      const toCheck = numbers.filter((n) => !n.includes('@') && whatsAppNumberForms(n).length > 1);
      const checked = toCheck.length > 0 ? await lookupAll(channel, toCheck) : new Map<string, WuzapiNumberLookup>();
      return numbers.map((n) => (n.includes('@') ? n : (checked.get(n)?.phone ?? whatsAppNumberForms(n)[0]!)));
    },
  };
}

export type WuzapiNumbers = ReturnType<typeof createWuzapiNumbers>;

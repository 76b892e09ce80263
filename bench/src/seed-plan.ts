/**
 * What each profile seeds: one row per tenant (its size and staff mix). Totals are the same for both profiles:
 * 50,000 contacts, 100,000 tickets (two per contact) and 10 messages per ticket, times `scale`.
 */
export type Profile = 'one-company' | 'saas';
export const PROFILES: Profile[] = ['one-company', 'saas'];

export interface TenantPlan {
  /** 1-based position in the profile (stable across runs: e-mails and tokens derive from it). */
  ord: number;
  name: string;
  contacts: number;
  tickets: number;
  admins: number;
  supers: number;
  agents: number;
  queues: number;
}

export const TOTAL_CONTACTS = 50_000;
export const TICKETS_PER_CONTACT = 2;
export const MESSAGES_PER_TICKET = 10;
/** Every seeded user has this password (printed by the seed; bench logs in with it). */
export const BENCH_PASSWORD = 'Bench#2025!';
/** tenants.identity of the tenants a profile owns: a re-run replaces exactly these. */
export const profileIdentity = (profile: Profile): string => `bench:${profile}`;

interface SizeClass {
  count: number;
  weight: number;
  staff: Pick<TenantPlan, 'admins' | 'supers' | 'agents' | 'queues'>;
}

const ONE_COMPANY: SizeClass[] = [{ count: 1, weight: 1, staff: { admins: 2, supers: 3, agents: 15, queues: 5 } }];
// 200 tenants: a few big, some medium, many small.
const SAAS: SizeClass[] = [
  { count: 4, weight: 100, staff: { admins: 2, supers: 3, agents: 15, queues: 5 } },
  { count: 16, weight: 20, staff: { admins: 1, supers: 1, agents: 5, queues: 3 } },
  { count: 180, weight: 2, staff: { admins: 1, supers: 0, agents: 2, queues: 2 } },
];

export function planProfile(profile: Profile, scale: number): TenantPlan[] {
  const classes = profile === 'saas' ? SAAS : ONE_COMPANY;
  const totalWeight = classes.reduce((sum, c) => sum + c.count * c.weight, 0);
  const totalContacts = Math.max(1, Math.round(TOTAL_CONTACTS * scale));
  const plans: TenantPlan[] = [];
  for (const sizeClass of classes) {
    for (let k = 0; k < sizeClass.count; k++) {
      const ord = plans.length + 1;
      const contacts = Math.max(1, Math.floor((totalContacts * sizeClass.weight) / totalWeight));
      plans.push({
        ord,
        name: profile === 'saas' ? `Bench SaaS ${String(ord).padStart(3, '0')}` : 'Bench',
        contacts,
        tickets: contacts * TICKETS_PER_CONTACT,
        ...sizeClass.staff,
      });
    }
  }
  // Rounding leftovers go to the first (biggest) tenant, so the totals are exact.
  const leftover = totalContacts - plans.reduce((sum, p) => sum + p.contacts, 0);
  if (leftover > 0) {
    plans[0]!.contacts += leftover;
    plans[0]!.tickets = plans[0]!.contacts * TICKETS_PER_CONTACT;
  }
  return plans;
}

/** The e-mail of a seeded user: `<role><n>@t<ord>.<profile>.bench` (unique across profiles and tenants). */
export function benchEmail(profile: Profile, ord: number, role: 'admin' | 'super' | 'agent', n: number): string {
  return `${role}${n}@t${ord}.${profile}.bench`;
}

/** The seeded Telegram bot token of a tenant's channel (the bench registers it with the simulator). */
export const benchBotToken = (profile: Profile, ord: number): string =>
  `${profile === 'saas' ? 2 : 1}${String(ord).padStart(4, '0')}:AA-bench-${profile}-token-0000000000`;

/** What a profile may do on the contacts screen (the server checks again; this only hides what would be refused). */
import type { Profile } from '@conversa/shared';

export interface ContactPermissions {
  /** Delete, import, export, merge duplicates: supervisors and up. */
  manage: boolean;
  /** Wallet owners are users; listing users needs a supervisor or up. */
  listUsers: boolean;
  /** The WhatsApp session tools (phone-book and group sync, number check): admins, as the server requires. */
  sessionTools: boolean;
}

export function contactPermissions(profile: Profile | undefined): ContactPermissions {
  const manager = profile === 'super' || profile === 'admin' || profile === 'superadmin';
  return { manage: manager, listUsers: manager, sessionTools: profile === 'admin' || profile === 'superadmin' };
}

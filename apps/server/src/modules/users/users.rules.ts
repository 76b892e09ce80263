/**
 * Who may change what on a user. Admin rights come from the profile alone. Nobody changes their own profile, only a
 * superadmin grants superadmin, and nobody edits or deletes a user whose profile outranks their own. Changing one's
 * own password or e-mail needs the current password: a stolen access token must not be enough to take the account.
 */
import type { updateUserInputSchema } from '@conversa/shared';
import { isAdminProfile, type Profile } from '@conversa/shared';
import type { z } from 'zod';
import { verifyPassword } from '../../platform/crypto.js';
import { profileRank } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { UserPatch, UserRow } from './users.repository.js';

export interface Actor {
  userId: number;
  profile: Profile;
}

export type UserEdit = z.output<typeof updateUserInputSchema>;

/** Throws unless `actor` may act on `target` at all (edit, delete, presence, configs). */
export function assertMayManage(actor: Actor, target: Pick<UserRow, 'id' | 'profile'>): void {
  if (actor.userId === target.id) return;
  if (!isAdminProfile(actor.profile)) throw fail('ERR_NO_PERMISSION');
  if (profileRank(target.profile) > profileRank(actor.profile)) throw fail('ERR_NO_PERMISSION');
}

export function assertMayGrant(actor: Actor, profile: Profile): void {
  if (profile === 'superadmin' && actor.profile !== 'superadmin') throw fail('ERR_NO_PERMISSION');
}

/** Checks an edit and turns it into the column patch (the password is hashed by the caller). */
export function planUserEdit(actor: Actor, target: UserRow, edit: UserEdit, passwordHash?: string): UserPatch {
  assertMayManage(actor, target);
  const self = actor.userId === target.id;
  const admin = isAdminProfile(actor.profile);
  const patch: UserPatch = {};
  if (edit.name !== undefined) patch.name = edit.name;
  if (edit.email !== undefined) patch.email = edit.email;
  if (passwordHash !== undefined) {
    patch.passwordHash = passwordHash;
    patch.bumpTokenVersion = true;
  }
  // Clients echo the whole user back: an unchanged profile or flag is not a change.
  if (edit.profile !== undefined && edit.profile !== target.profile) {
    if (self) throw fail('ERR_PROFILE_ESCALATION');
    assertMayGrant(actor, edit.profile);
    patch.profile = edit.profile;
  }
  if (edit.blockWavoip !== undefined && edit.blockWavoip !== target.blockWavoip) {
    if (!admin) throw fail('ERR_NO_PERMISSION');
    patch.blockWavoip = edit.blockWavoip;
  }
  return patch;
}

/**
 * On one's own account a new password or another e-mail needs `currentPassword` (missing: ERR_VALIDATION naming it;
 * wrong: ERR_CURRENT_PASSWORD_INVALID, a 400 so the client is not logged out). An admin editing someone else does not.
 */
export async function assertCurrentPassword(
  actor: Actor,
  target: Pick<UserRow, 'id' | 'email' | 'passwordHash'>,
  edit: Pick<UserEdit, 'email' | 'password' | 'currentPassword'>,
): Promise<void> {
  if (actor.userId !== target.id) return;
  const emailChanged = edit.email !== undefined && edit.email !== target.email.toLowerCase();
  if (!edit.password && !emailChanged) return;
  if (!edit.currentPassword) throw fail('ERR_VALIDATION', 'currentPassword');
  if (!(await verifyPassword(target.passwordHash, edit.currentPassword))) {
    throw fail('ERR_CURRENT_PASSWORD_INVALID', 'currentPassword');
  }
}

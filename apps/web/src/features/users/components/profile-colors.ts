import type { Profile } from '@conversa/shared';

/** The badge colour of each profile in the user lists. */
export const PROFILE_COLORS: Record<Profile, string> = {
  user: 'gray',
  super: 'cyan',
  admin: 'indigo',
  superadmin: 'grape',
};

/** Teams (equipes): product-spec §3 "Team", client-contract §16 `/group-message`. A team's name is `group`. */
import { z } from 'zod';
import { idParam, looseBoolean, profileSchema } from './schemas.js';

export const TEAM_NAME_MAX = 120;

/** A team of `GET /group-message`: `users` are its members (id and name), for counts and the private chat. */
export const teamDtoSchema = z.object({
  id: z.number(),
  group: z.string(),
  isActive: z.boolean(),
  users: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type TeamDto = z.infer<typeof teamDtoSchema>;

/** POST/PUT /group-message body. */
export const teamInputSchema = z.object({
  group: z.string().trim().min(1).max(TEAM_NAME_MAX),
  isActive: looseBoolean.optional(),
});
export type TeamInput = z.input<typeof teamInputSchema>;

/** A member of `GET /group-message/{id}` (a bare array of them). */
export const teamMemberSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileSchema,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** POST /group-message/user: ids may arrive as strings. */
export const teamUserInputSchema = z.object({ userId: idParam, groupId: idParam });
export type TeamUserInput = z.input<typeof teamUserInputSchema>;

export const teamUserParamsSchema = z.object({ userId: idParam, groupId: idParam });

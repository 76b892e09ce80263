/** Tags (etiquetas): product-spec §3 "Tag", client-contract §8. A tag's name is `tag` on the wire. */
import { z } from 'zod';
import { looseBoolean } from './schemas.js';

/** A colour as `#rrggbb`. */
export const TAG_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const TAG_NAME_MAX = 60;
export const DEFAULT_TAG_COLOR = '#1976d2';
export const TAG_COLOR_MESSAGE = 'color must be #rrggbb (six hexadecimal digits, e.g. #1976d2)';

export const tagDtoSchema = z.object({ id: z.number(), tag: z.string(), color: z.string(), isActive: z.boolean() });
export type TagDto = z.infer<typeof tagDtoSchema>;

/** POST/PUT /tags body; clients echo the whole object back (unknown keys are dropped). */
export const tagInputSchema = z.object({
  tag: z.string().trim().min(1).max(TAG_NAME_MAX),
  // Refused, never replaced: 400 ERR_VALIDATION with field `color` and this message.
  color: z.string().trim().regex(TAG_COLOR_PATTERN, TAG_COLOR_MESSAGE).optional(),
  isActive: looseBoolean.optional(),
});
export type TagInput = z.input<typeof tagInputSchema>;

/** GET /tags?isActive=true|false|null: the string `null` (or nothing, or empty) means no filter (client-contract §21.2). */
export const tagListQuerySchema = z.object({
  isActive: z
    .preprocess((v) => (v === '' ? undefined : v), z.enum(['true', 'false', 'null']).optional())
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : null)),
});

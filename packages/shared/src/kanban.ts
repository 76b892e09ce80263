/** Kanban lanes and the boards (client-contract §6 `/contactsKanban`, `/contactsTags`, §8 `/kanban`). */
import { z } from 'zod';
import { contactTagSchema } from './contacts.js';
import { idParam } from './schemas.js';

export const LANE_NAME_MAX = 120;
/** The cards a board column asks for at once (the reference client pages boards 40 at a time too). */
export const KANBAN_COLUMN_PAGE = 40;

export const laneDtoSchema = z.object({ id: z.number(), name: z.string(), position: z.number() });
export type LaneDto = z.infer<typeof laneDtoSchema>;

/** `GET /kanban` answers `{ kanban: [...] }` (client-contract §8), ordered by position. */
export const laneListResponseSchema = z.object({ kanban: z.array(laneDtoSchema) });
export type LaneListResponse = z.infer<typeof laneListResponseSchema>;

/** POST/PUT /kanban body; clients echo the whole lane back (unknown keys are dropped). */
export const laneInputSchema = z.object({
  name: z.string().trim().min(1).max(LANE_NAME_MAX),
  /** Left out on create: after the last lane. On update: the lane keeps its place. */
  position: z.coerce.number().int().min(0).max(100_000).optional(),
});
export type LaneInput = z.input<typeof laneInputSchema>;

/** PUT /kanban/order: the lanes' ids in their new order (lanes left out follow, in their current order). */
export const laneOrderInputSchema = z.object({
  ids: z
    .array(idParam)
    .min(1)
    .max(500)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate id' }),
});
export type LaneOrderInput = z.input<typeof laneOrderInputSchema>;

/** A board card (client-contract §6 `/contactsKanban`). */
export const kanbanCardSchema = z.object({
  id: z.number(),
  name: z.string(),
  pushname: z.string().nullable(),
  number: z.string().nullable(),
  profilePicUrl: z.string().nullable(),
  isGroup: z.boolean(),
  kanban: z.number().nullable(),
});
export type KanbanCard = z.infer<typeof kanbanCardSchema>;
export const tagBoardCardSchema = kanbanCardSchema.extend({ tags: z.array(contactTagSchema) });
export type TagBoardCard = z.infer<typeof tagBoardCardSchema>;

/** `GET /contactsKanban/` and `GET /contactsTags/` (client-contract §6): pages of 40 by name. */
export const boardPageQuerySchema = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export const kanbanBoardResponseSchema = z.object({ contacts: z.array(kanbanCardSchema), hasMore: z.boolean() });
export const tagBoardResponseSchema = z.object({ contacts: z.array(tagBoardCardSchema), hasMore: z.boolean() });

/** A lane column: a lane's id, or `none` for the contacts in no lane. */
export const laneColumnParamsSchema = z.object({ id: z.union([z.literal('none'), idParam]) });
export type LaneColumnId = z.output<typeof laneColumnParamsSchema>['id'];

/** One page of a board column, after `cursor` (the `nextCursor` of the page before; opaque). */
export const columnPageQuerySchema = z.object({
  cursor: z.string().max(600).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional().default(KANBAN_COLUMN_PAGE),
  searchParam: z.string().max(200).optional().default(''),
});
export type ColumnPageQuery = z.input<typeof columnPageQuerySchema>;
export const columnPageResponseSchema = z.object({
  contacts: z.array(kanbanCardSchema),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type ColumnPage = z.infer<typeof columnPageResponseSchema>;

/** POST /contacts/{id}/move-tag: the contact loses `from` and gains `to`, in one transaction. */
export const moveTagInputSchema = z.object({ from: idParam, to: idParam });
export type MoveTagInput = z.input<typeof moveTagInputSchema>;

/** `{T}:kanban` socket payload: a lane changed (a delete also took its contacts out of it), or the lanes' order. */
export type KanbanLaneEvent =
  { action: 'create' | 'update' | 'delete'; lane: LaneDto } | { action: 'order'; kanban: LaneDto[] };

/**
 * Kanban lanes (every profile reads them; supervisors and admins change them) and the boards: a lane's or a tag's
 * column page by page, and moving a contact between tags. Moving between lanes is the contacts module's
 * `PUT /contacts/{id} { kanban }` (client-contract §21.6). ctx comes first.
 */
import type { ColumnPage, ContactDto, KanbanCard, LaneColumnId, LaneDto, TagBoardCard } from '@conversa/shared';
import type { Logger } from 'pino';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { loadContactDtos } from '../contacts/index.js';
import * as board from './kanban.board.repository.js';
import * as repo from './kanban.repository.js';
import './kanban.events.js';

/** The contract's boards page 40 contacts at a time. */
const BOARD_PAGE_SIZE = 40;

const toLaneDto = (row: repo.LaneRow): LaneDto => ({ id: row.id, name: row.name, position: row.position });

/** A lane page's cursor: the last card's name and id, opaque to clients (base64url JSON). */
function laneCursor(card: KanbanCard): string {
  return Buffer.from(JSON.stringify([card.name, card.id])).toString('base64url');
}

function readLaneCursor(cursor: string | undefined): board.LaneCursor | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && Number.isSafeInteger(value[1]) && value[1] > 0) {
      return { name: value[0], id: value[1] as number };
    }
  } catch {
    // not JSON: refused below
  }
  throw fail('ERR_VALIDATION', 'cursor');
}

function readTagCursor(cursor: string | undefined): number | null {
  if (!cursor) return null;
  if (!/^[1-9]\d{0,15}$/.test(cursor)) throw fail('ERR_VALIDATION', 'cursor');
  return Number(cursor);
}

/** `limit + 1` rows read: the page, whether more follow, and the cursor after it. */
function toColumnPage(cards: KanbanCard[], limit: number, cursorOf: (card: KanbanCard) => string): ColumnPage {
  const page = cards.slice(0, limit);
  const hasMore = cards.length > limit;
  return { contacts: page, hasMore, nextCursor: hasMore ? cursorOf(page[page.length - 1]!) : null };
}

export interface ColumnQuery {
  cursor?: string | undefined;
  limit: number;
  searchParam: string;
}

export function createKanbanService(deps: { db: Database; events: EventBus; logger: Logger }) {
  const { db, events, logger } = deps;

  return {
    listLanes: async (ctx: TenantContext): Promise<LaneDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listLanes(tx, ctx.tenantId))).map(toLaneDto),

    async createLane(ctx: TenantContext, input: { name: string; position?: number | undefined }): Promise<LaneDto> {
      const lane = toLaneDto(
        await withTenant(db, ctx, async (tx) =>
          repo.insertLane(tx, ctx.tenantId, {
            name: input.name,
            position: input.position ?? (await repo.nextPosition(tx, ctx.tenantId)),
          }),
        ),
      );
      events.publish('kanban.lanes_changed', { tenantId: ctx.tenantId, change: { action: 'create', lane } });
      return lane;
    },

    async updateLane(
      ctx: TenantContext,
      id: number,
      input: { name: string; position?: number | undefined },
    ): Promise<LaneDto> {
      const row = await withTenant(db, ctx, (tx) => repo.updateLane(tx, ctx.tenantId, id, input));
      if (!row) throw fail('ERR_NO_LANE_FOUND');
      const lane = toLaneDto(row);
      events.publish('kanban.lanes_changed', { tenantId: ctx.tenantId, change: { action: 'update', lane } });
      return lane;
    },

    /** Positions 0..n-1 in the order of `ids`; the lanes left out follow in their current order. */
    async orderLanes(ctx: TenantContext, ids: number[]): Promise<LaneDto[]> {
      const lanes = await withTenant(db, ctx, async (tx) => {
        const current = await repo.lockLanes(tx, ctx.tenantId);
        const known = new Set(current.map((lane) => lane.id));
        if (ids.some((id) => !known.has(id))) throw fail('ERR_NO_LANE_FOUND');
        const listed = new Set(ids);
        await repo.setPositions(tx, ctx.tenantId, [
          ...ids,
          ...current.filter((lane) => !listed.has(lane.id)).map((lane) => lane.id),
        ]);
        return repo.listLanes(tx, ctx.tenantId);
      });
      const kanban = lanes.map(toLaneDto);
      events.publish('kanban.lanes_changed', { tenantId: ctx.tenantId, change: { action: 'order', kanban } });
      return kanban;
    },

    /** Deletes the lane; its contacts are in no lane afterwards (same transaction). */
    async deleteLane(ctx: TenantContext, id: number): Promise<void> {
      const { lane, cleared } = await withTenant(db, ctx, async (tx) => {
        const [row] = (await repo.lockLanes(tx, ctx.tenantId)).filter((l) => l.id === id);
        if (!row) throw fail('ERR_NO_LANE_FOUND');
        return { lane: toLaneDto(row), cleared: (await repo.deleteLane(tx, ctx.tenantId, id)) ?? 0 };
      });
      logger.info({ tenantId: ctx.tenantId, userId: ctx.userId, laneId: id, cleared }, 'kanban lane deleted');
      events.publish('kanban.lanes_changed', { tenantId: ctx.tenantId, change: { action: 'delete', lane } });
    },

    /** One page of a lane's cards (or of the contacts in no lane), by name. */
    laneColumn: (ctx: TenantContext, laneId: LaneColumnId, query: ColumnQuery): Promise<ColumnPage> =>
      withTenant(db, ctx, async (tx) => {
        const after = readLaneCursor(query.cursor);
        const lane = laneId === 'none' ? null : laneId;
        if (lane !== null && (await repo.findLaneIds(tx, ctx.tenantId, [lane])).length === 0) {
          throw fail('ERR_NO_LANE_FOUND');
        }
        const cards = await board.laneCards(tx, ctx.tenantId, {
          laneId: lane,
          after,
          search: query.searchParam,
          limit: query.limit + 1,
        });
        return toColumnPage(cards, query.limit, laneCursor);
      }),

    /** One page of the cards of the contacts holding a tag, by contact id. */
    tagColumn: (ctx: TenantContext, tagId: number, query: ColumnQuery): Promise<ColumnPage> =>
      withTenant(db, ctx, async (tx) => {
        const afterId = readTagCursor(query.cursor);
        if (!(await board.tagExists(tx, ctx.tenantId, tagId))) throw fail('ERR_NO_TAG_FOUND');
        const cards = await board.tagCards(tx, ctx.tenantId, {
          tagId,
          afterId,
          search: query.searchParam,
          limit: query.limit + 1,
        });
        return toColumnPage(cards, query.limit, (card) => String(card.id));
      }),

    /** The contract's boards (`/contactsKanban`, `/contactsTags`): 40 cards a page, by name. */
    async boardPage(
      ctx: TenantContext,
      query: { pageNumber: number; searchParam: string },
      withTags: boolean,
    ): Promise<{ contacts: TagBoardCard[]; hasMore: boolean }> {
      const cards = await withTenant(db, ctx, (tx) =>
        board.boardCards(tx, ctx.tenantId, {
          search: query.searchParam,
          limit: BOARD_PAGE_SIZE + 1,
          offset: (query.pageNumber - 1) * BOARD_PAGE_SIZE,
          withTags,
        }),
      );
      return { contacts: cards.slice(0, BOARD_PAGE_SIZE), hasMore: cards.length > BOARD_PAGE_SIZE };
    },

    /** The tag board's move: the contact loses `from` and gains `to` in one transaction; logged and pushed. */
    async moveContactTag(ctx: TenantContext, contactId: number, move: { from: number; to: number }) {
      const contact: ContactDto = await withTenant(db, ctx, async (tx) => {
        const row = await board.lockContact(tx, ctx.tenantId, contactId);
        if (!row) throw fail('ERR_NO_CONTACT_FOUND');
        for (const tagId of new Set([move.from, move.to])) {
          if (!(await board.tagExists(tx, ctx.tenantId, tagId))) throw fail('ERR_NO_TAG_FOUND');
        }
        if (move.from !== move.to) await board.swapContactTag(tx, ctx.tenantId, { contactId, ...move });
        const [dto] = await loadContactDtos(tx, [row]);
        return dto!;
      });
      logger.info(
        { tenantId: ctx.tenantId, userId: ctx.userId, contactId, from: move.from, to: move.to },
        'contact moved to another tag',
      );
      events.publish('contacts.updated', { tenantId: ctx.tenantId, contact });
      return contact;
    },
  };
}

export type KanbanService = ReturnType<typeof createKanbanService>;

/**
 * Isolation cases of kanban lanes (`/kanban`), the boards' columns and pages (`/kanban/{id}/contacts`,
 * `/kanban-tags/{id}/contacts`, `/contactsKanban`, `/contactsTags`) and the tag board's move.
 */
import { systemContext, withTenant } from '../../src/platform/db/tenancy.js';
import { contactTags, tags } from '../../src/modules/contacts/contacts.tables.js';
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const seeded = { lane: 0, tag: 0 };

export const feature: IsolationFeature = {
  async seed({ t, owner, ids }) {
    seeded.lane = (await t.call(owner, 'POST', '/kanban', { name: `${MARK} coluna` })).json<{ id: number }>().id;
    await t.call(owner, 'PUT', `/contacts/${ids.contact}`, { kanban: seeded.lane });
    seeded.tag = await withTenant(t.platform.db, systemContext(1), async (tx) => {
      const [tag] = await tx
        .insert(tags)
        .values({ tenantId: 1, tag: `${MARK} quadro` })
        .returning();
      await tx.insert(contactTags).values({ tenantId: 1, contactId: ids.contact, tagId: tag!.id });
      return tag!.id;
    });
  },
  cases: ({ ids, ownContactId }) => ({
    'GET /api/kanban': { list: [['GET', '/kanban']] },
    'POST /api/kanban': { own: [['POST', '/kanban', { name: 'Propria' }]] },
    'PUT /api/kanban/order': { owned: [['PUT', '/kanban/order', { ids: [seeded.lane] }]] },
    'PUT /api/kanban/:id': { owned: [['PUT', `/kanban/${seeded.lane}`, { name: 'Roubada', position: 9 }]] },
    'DELETE /api/kanban/:id': { owned: [['DELETE', `/kanban/${seeded.lane}`]] },
    'GET /api/kanban/:id/contacts': { owned: [['GET', `/kanban/${seeded.lane}/contacts`]] },
    'GET /api/kanban-tags/:id/contacts': { owned: [['GET', `/kanban-tags/${seeded.tag}/contacts`]] },
    'GET /api/contactsKanban': {
      list: [
        ['GET', '/contactsKanban'],
        ['GET', `/contactsKanban?searchParam=${MARK}`],
      ],
    },
    'GET /api/contactsTags': {
      list: [
        ['GET', '/contactsTags'],
        ['GET', `/contactsTags?searchParam=${MARK}`],
      ],
    },
    'POST /api/contacts/:id/move-tag': {
      owned: [
        ['POST', `/contacts/${ids.contact}/move-tag`, { from: seeded.tag, to: seeded.tag }],
        // The caller's own contact, tenant 1's tags: not found either.
        ['POST', `/contacts/${ownContactId}/move-tag`, { from: seeded.tag, to: seeded.tag }],
      ],
    },
  }),
};

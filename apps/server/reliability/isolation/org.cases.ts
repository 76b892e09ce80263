/** Isolation cases of the organisation screens: tags (`/tags`) and teams (`/group-message`). Queues are in the main file. */
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const ids = { tag: 0, team: 0 };

export const feature: IsolationFeature = {
  async seed({ t, owner, ids: base }) {
    ids.tag = (await t.call(owner, 'POST', '/tags', { tag: `${MARK} Etiqueta`, color: '#ff0000' })).json<{
      id: number;
    }>().id;
    await t.call(owner, 'PUT', `/contact-tags/${base.contact}`, { tags: [ids.tag] });
    ids.team = (await t.call(owner, 'POST', '/group-message', { group: `${MARK} Equipe` })).json<{ id: number }>().id;
    await t.call(owner, 'POST', '/group-message/user', { userId: base.user, groupId: ids.team });
  },
  cases: ({ ids: base, intruder }) => ({
    'GET /api/tags': {
      list: [
        ['GET', '/tags'],
        ['GET', '/tags/?isActive=null'],
        ['GET', '/tags/?isActive=true'],
      ],
    },
    'POST /api/tags': { own: [['POST', '/tags', { tag: `${MARK} Etiqueta`, color: '#00ff00' }]] },
    'PUT /api/tags/:id': { owned: [['PUT', `/tags/${ids.tag}`, { tag: 'Roubada', color: '#000000' }]] },
    'DELETE /api/tags/:id': { owned: [['DELETE', `/tags/${ids.tag}`]] },
    'GET /api/group-message': { list: [['GET', '/group-message']] },
    'POST /api/group-message': { own: [['POST', '/group-message', { group: `${MARK} Equipe` }]] },
    'GET /api/group-message/:id': { owned: [['GET', `/group-message/${ids.team}`]] },
    'PUT /api/group-message/:id': { owned: [['PUT', `/group-message/${ids.team}`, { group: 'Roubada' }]] },
    'DELETE /api/group-message/:id': { owned: [['DELETE', `/group-message/${ids.team}`]] },
    'POST /api/group-message/user': {
      owned: [
        // Tenant 1's team, with the intruder's own user or with tenant 1's user.
        ['POST', '/group-message/user', { userId: intruder.id, groupId: ids.team }],
        ['POST', '/group-message/user', { userId: base.user, groupId: ids.team }],
      ],
    },
    'DELETE /api/group-message/user/:userId/:groupId': {
      owned: [
        ['DELETE', `/group-message/user/${base.user}/${ids.team}`],
        ['DELETE', `/group-message/user/${intruder.id}/${ids.team}`],
      ],
    },
  }),
};

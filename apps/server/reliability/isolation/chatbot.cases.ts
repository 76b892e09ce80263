/** Isolation cases of chat flows (`/chat-flow*`), their public media files and the legacy auto-reply (`/auto-reply*`). */
import { defaultChatFlow } from '@conversa/shared';
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const seeded = { flow: 0, media: '', autoReply: 0, step: 0, action: 0, queue: 0 };

export const feature: IsolationFeature = {
  async seed({ t, owner, ids }) {
    seeded.queue = ids.queue;
    seeded.flow = (
      await t.call(owner, 'POST', '/chat-flow', { name: `${MARK} fluxo`, flow: defaultChatFlow(`${MARK} fluxo`) })
    ).json<{ id: number }>().id;

    const boundary = '----isolationflowmedia';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.from('89504e47', 'hex'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/chat-flow-media',
      payload,
      headers: { ...owner.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    seeded.media = new URL(uploaded.json<{ mediaUrl: string }>().mediaUrl).pathname.split('/').pop()!;

    seeded.autoReply = (await t.call(owner, 'POST', '/auto-reply', { name: `${MARK} resposta`, action: 0 })).json<{
      id: number;
    }>().id;
    seeded.step = (
      await t.call(owner, 'POST', `/auto-reply/${seeded.autoReply}/steps`, {
        reply: `${MARK} etapa`,
        initialStep: true,
      })
    ).json<{ id: number }>().id;
    seeded.action = (
      await t.call(owner, 'POST', '/auto-reply-action', {
        stepReplyId: seeded.step,
        words: `${MARK}`,
        action: 1,
        queueId: ids.queue,
      })
    ).json<{ id: number }>().id;
  },
  cases: ({ intruder }) => {
    const flowBody = { name: 'Roubado', isActive: true, flow: defaultChatFlow('Roubado') };
    const actionBody = { stepReplyId: seeded.step, words: 'x', action: 1, queueId: seeded.queue };
    return {
      'GET /api/chat-flow': { list: [['GET', '/chat-flow']] },
      'GET /api/chat-flow/:id': { owned: [['GET', `/chat-flow/${seeded.flow}`]] },
      'POST /api/chat-flow': { own: [['POST', '/chat-flow', { name: `${MARK} fluxo` }]] },
      'PUT /api/chat-flow/:id': { owned: [['PUT', `/chat-flow/${seeded.flow}`, flowBody]] },
      'DELETE /api/chat-flow/:id': { owned: [['DELETE', `/chat-flow/${seeded.flow}`]] },
      'POST /api/chat-flow-duplicate': { owned: [['POST', '/chat-flow-duplicate', { id: seeded.flow }]] },
      'PUT /api/chat-flow-import/:id': {
        owned: [
          ['PUT', `/chat-flow-import/${seeded.flow}`, { ...defaultChatFlow('Roubado'), id: seeded.flow }],
          ['PUT', `/chat-flow-import/${seeded.flow}`, { flow: defaultChatFlow('Roubado'), id: seeded.flow }],
        ],
      },
      // A JSON body is refused (400); a file would be stored under the caller's own tenant.
      'POST /api/chat-flow-media': { own: [['POST', '/chat-flow-media', { medias: 'x' }]] },
      // The file is public by its random name under its own tenant; under another tenant's id it is not found.
      'GET /api/public/chat-flow/:tenantId/:media': {
        owned: [['GET', `/public/chat-flow/${intruder.tenantId}/${seeded.media}`]],
      },
      'GET /api/auto-reply': { list: [['GET', '/auto-reply']] },
      'POST /api/auto-reply': { own: [['POST', '/auto-reply', { name: `${MARK} resposta`, action: 0 }]] },
      'PUT /api/auto-reply/:id': {
        owned: [['PUT', `/auto-reply/${seeded.autoReply}`, { name: 'Roubada', action: 0 }]],
      },
      'DELETE /api/auto-reply/:id': { owned: [['DELETE', `/auto-reply/${seeded.autoReply}`]] },
      'POST /api/auto-reply/:idAutoReply/steps': {
        owned: [['POST', `/auto-reply/${seeded.autoReply}/steps`, { reply: 'intrusa' }]],
      },
      'PUT /api/auto-reply/:idAutoReply/steps/:id': {
        owned: [['PUT', `/auto-reply/${seeded.autoReply}/steps/${seeded.step}`, { reply: 'roubada' }]],
      },
      'DELETE /api/auto-reply/:idAutoReply/steps/:id': {
        owned: [['DELETE', `/auto-reply/${seeded.autoReply}/steps/${seeded.step}`]],
      },
      'POST /api/auto-reply-action': { owned: [['POST', '/auto-reply-action', actionBody]] },
      'PUT /api/auto-reply-action/:id': { owned: [['PUT', `/auto-reply-action/${seeded.action}`, actionBody]] },
      'DELETE /api/auto-reply-action/:id': { owned: [['DELETE', `/auto-reply-action/${seeded.action}`]] },
    };
  },
};

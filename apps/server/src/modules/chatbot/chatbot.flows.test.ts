/**
 * /api/chat-flow* (decisions §A/§B): CRUD round trips, the graph checks, soft delete with its refusals and clean-ups,
 * duplicate, import in both forms, permissions, tenant isolation, the flow media upload and its public files, and the
 * engine's read `loadFlow`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatFlow, type ChatFlowDto, type ChatFlowGraph } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeQueue, makeTicket } from '../../test/ticket-fixtures.js';
import { loadFlow } from './chatbot.flows.js';

const MAX_UPLOAD = 1000;
let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let outsider: TestUser;
/** The tenant's queue the menu hands over to (a flow names only its tenant's queues). */
let queue: number;
const changes: number[] = [];

/** A valid flow: start -> ask (keywords "1" to the end step, anything else: a queue) -> end. */
function menuFlow(name = 'Menu'): ChatFlowGraph {
  return {
    name,
    nodeList: [
      { id: 'start', type: 'start', name: 'Início', left: 10, top: 10 },
      { id: 'cfg', type: 'configurations', name: 'Configurações', configurations: {} },
      {
        id: 'ask',
        type: 'node',
        name: 'Pergunta',
        interactions: [{ id: 'i1', type: 'MessageField', data: { message: 'Digite 1' } }],
        conditions: [
          { id: 'c1', type: 'US', condition: ['1'], action: 0, nextStepId: 'end' },
          { id: 'c2', type: 'O', condition: [], action: 1, queueId: queue },
        ],
        actions: [],
      },
      { id: 'end', type: 'node', name: 'Fim', interactions: [], conditions: [], actions: [] },
    ],
    lineList: [
      { from: 'start', to: 'ask' },
      { from: 'ask', to: 'end', fromCondition: 'c1' },
    ],
  };
}

const create = async (user: TestUser, body: object) => t.call(user, 'POST', '/chat-flow', body);
async function createFlow(name: string, extra: object = {}): Promise<ChatFlowDto> {
  const res = await create(supervisor, { name, isActive: true, celularTeste: null, flow: menuFlow(name), ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChatFlowDto>();
}

const sql = async (text: string, params: unknown[] = []) => (await t.database.executeSql(text, params)).rows;

beforeAll(async () => {
  t = await createTestApp({ MEDIA_MAX_UPLOAD_BYTES: String(MAX_UPLOAD), PUBLIC_URL: 'https://chat.example.com' });
  tenant = await t.createTenant();
  ({ admin, agent, supervisor } = await t.createStaff(tenant));
  queue = await makeQueue(t, tenant, 'Atendimento');
  outsider = (await t.createStaff(await t.createTenant())).admin;
  t.platform.events.subscribe('chatbot.changed', ({ tenantId }) => void changes.push(tenantId));
});
afterAll(() => t.close());

describe('chat flows CRUD', () => {
  it('creates, reads, lists, changes the whole record; the caller is the author whatever userId says', async () => {
    changes.length = 0;
    const res = await create(supervisor, {
      name: ' Atendimento ',
      userId: admin.id,
      isActive: 'false',
      celularTeste: '+55 (11) 98888-7777',
      flow: menuFlow(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<ChatFlowDto>();
    expect(created).toMatchObject({
      name: 'Atendimento',
      isActive: false,
      celularTeste: '5511988887777',
      userId: supervisor.id,
    });
    expect(created.flow.nodeList.map((n) => n.id)).toEqual(['start', 'cfg', 'ask', 'end']);
    // Layout fields ride along untouched.
    expect(created.flow.nodeList[0]).toMatchObject({ left: 10, top: 10 });
    expect(changes).toEqual([tenant]);

    // Every profile reads (the list is wrapped, by id, with a trailing slash too).
    const list = await t.call(agent, 'GET', '/chat-flow/');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ chatFlow: ChatFlowDto[] }>().chatFlow.map((f) => f.id)).toContain(created.id);
    const one = await t.call(agent, 'GET', `/chat-flow/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(created);

    const flow = menuFlow('Novo nome');
    flow.nodeList[2] = { ...flow.nodeList[2]!, name: 'Pergunta 2' } as ChatFlowGraph['nodeList'][number];
    const put = await t.call(admin, 'PUT', `/chat-flow/${created.id}/`, {
      name: 'Novo nome',
      isActive: true,
      celularTeste: '',
      userId: agent.id,
      flow,
    });
    expect(put.statusCode, put.body).toBe(200);
    const updated = put.json<ChatFlowDto>();
    expect(updated).toMatchObject({ id: created.id, name: 'Novo nome', isActive: true, celularTeste: null });
    expect(updated.userId).toBe(supervisor.id);
    expect(updated.flow.nodeList[2]).toMatchObject({ name: 'Pergunta 2' });
    expect((await t.call(agent, 'GET', `/chat-flow/${created.id}`)).json()).toEqual(updated);
  });

  it('lists by id ascending without deleted flows', async () => {
    const a = await createFlow('Lista A');
    const b = await createFlow('Lista B');
    expect((await t.call(admin, 'DELETE', `/chat-flow/${a.id}`)).statusCode).toBe(200);
    const ids = (await t.call(agent, 'GET', '/chat-flow'))
      .json<{ chatFlow: ChatFlowDto[] }>()
      .chatFlow.map((f) => f.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids).toContain(b.id);
    expect(ids).not.toContain(a.id);
  });

  it('POST without a graph stores the default flow named after the record', async () => {
    const res = await create(supervisor, { name: 'Sem grafo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ChatFlowDto>()).toMatchObject({ isActive: true, celularTeste: null });
    expect(res.json<ChatFlowDto>().flow).toEqual(defaultChatFlow('Sem grafo'));
  });

  it('reads nodeList and lineList at the top level of the body as the flow, on create and on save', async () => {
    const { nodeList, lineList } = menuFlow('Topo');
    const res = await create(supervisor, { name: 'Topo', isActive: true, nodeList, lineList });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<ChatFlowDto>();
    expect(created.flow.nodeList.map((n) => n.id)).toEqual(['start', 'cfg', 'ask', 'end']);
    expect(created.flow.lineList).toEqual(lineList);
    expect(created.flow.name).toBe('Topo');
    const renamed = nodeList.map((n) => (n.id === 'ask' ? { ...n, name: 'Pergunta nova' } : n));
    const put = await t.call(supervisor, 'PUT', `/chat-flow/${created.id}`, {
      name: 'Topo',
      nodeList: renamed,
      lineList,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<ChatFlowDto>().flow.nodeList[2]).toMatchObject({ name: 'Pergunta nova' });
    // A top-level graph is checked like any other.
    const invalid = await create(supervisor, { name: 'Topo inválido', nodeList: [{ id: 'x', type: 'nope' }] });
    expect(invalid.statusCode).toBe(400);
  });

  it('refuses a graph validateChatFlow rejects with ERR_CHAT_FLOW_INVALID, and a malformed one with ERR_VALIDATION', async () => {
    const existing = await createFlow('Válido');
    const unconnected = { ...menuFlow(), lineList: [] };
    for (const [method, path] of [
      ['POST', '/chat-flow'],
      ['PUT', `/chat-flow/${existing.id}`],
    ] as const) {
      const res = await t.call(supervisor, method, path, { name: 'X', flow: unconnected });
      expect(res.statusCode, `${method} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_CHAT_FLOW_INVALID', field: 'flow' });
      const malformed = await t.call(supervisor, method, path, { name: 'X', flow: { nodeList: [], lineList: [] } });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const badNumber = await create(supervisor, { name: 'X', celularTeste: '123', flow: menuFlow() });
    expect(badNumber.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await t.call(agent, 'GET', `/chat-flow/${existing.id}`)).json()).toEqual(existing);
  });

  it('answers 404 ERR_NO_AUTO_REPLY_FOUND for a missing or deleted flow on every id route', async () => {
    const gone = await createFlow('Apagado');
    expect((await t.call(admin, 'DELETE', `/chat-flow/${gone.id}`)).json()).toEqual({});
    const body = { name: 'X', flow: menuFlow() };
    for (const id of [gone.id, 999_999]) {
      for (const [method, path, payload] of [
        ['GET', `/chat-flow/${id}`],
        ['PUT', `/chat-flow/${id}`, body],
        ['DELETE', `/chat-flow/${id}`],
        ['POST', '/chat-flow-duplicate', { id }],
        ['PUT', `/chat-flow-import/${id}`, menuFlow()],
      ] as const) {
        const res = await t.call(admin, method, path, payload);
        expect(res.statusCode, `${method} ${path}`).toBe(404);
        expect(res.json()).toEqual({ error: 'ERR_NO_AUTO_REPLY_FOUND' });
      }
    }
  });

  it('lets agents read but refuses their writes with 403 ERR_NO_PERMISSION, changing nothing', async () => {
    const flow = await createFlow('Só leitura');
    changes.length = 0;
    for (const [method, path, payload] of [
      ['POST', '/chat-flow', { name: 'Agente', flow: menuFlow() }],
      ['PUT', `/chat-flow/${flow.id}`, { name: 'Agente', flow: menuFlow() }],
      ['DELETE', `/chat-flow/${flow.id}`],
      ['POST', '/chat-flow-duplicate', { id: flow.id }],
      ['PUT', `/chat-flow-import/${flow.id}`, menuFlow()],
    ] as const) {
      const res = await t.call(agent, method, path, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await t.call(agent, 'GET', `/chat-flow/${flow.id}`)).json()).toEqual(flow);
    expect(
      await sql('select count(*)::int as n from chat_flows where tenant_id = $1 and name = $2', [tenant, 'Agente']),
    ).toEqual([{ n: 0 }]);
    expect(changes).toEqual([]);
  });

  it("keeps tenants apart: another tenant's id is 404 and its list shows nothing of ours", async () => {
    const flow = await createFlow('Secreto');
    for (const [method, path, payload] of [
      ['GET', `/chat-flow/${flow.id}`],
      ['PUT', `/chat-flow/${flow.id}`, { name: 'Roubado', flow: menuFlow() }],
      ['DELETE', `/chat-flow/${flow.id}`],
      ['POST', '/chat-flow-duplicate', { id: flow.id }],
      ['PUT', `/chat-flow-import/${flow.id}`, menuFlow('Roubado')],
    ] as const) {
      const res = await t.call(outsider, method, path, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_AUTO_REPLY_FOUND' });
    }
    expect((await t.call(outsider, 'GET', '/chat-flow')).json()).toEqual({ chatFlow: [] });
    expect((await t.call(agent, 'GET', `/chat-flow/${flow.id}`)).json()).toEqual(flow);
  });
});

describe('duplicate and import', () => {
  it('duplicates as an inactive copy without test number, with the same graph', async () => {
    const source = await createFlow('Original', { celularTeste: '5511977776666' });
    const res = await t.call(admin, 'POST', '/chat-flow-duplicate', { ...source, name: 'ignorado' });
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json<ChatFlowDto>();
    expect(copy).toMatchObject({ name: 'Original (cópia)', isActive: false, celularTeste: null, userId: admin.id });
    expect(copy.id).not.toBe(source.id);
    expect(copy.flow).toEqual(source.flow);
    const bad = await t.call(admin, 'POST', '/chat-flow-duplicate', { name: 'sem id' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('imports an exported record or a bare graph, replacing the graph only', async () => {
    const target = await createFlow('Destino', { isActive: false, celularTeste: '5511966665555' });
    const exported = { name: 'Outro nome', isActive: true, celularTeste: '5511900000000', flow: menuFlow('Exportado') };
    const asRecord = await t.call(admin, 'PUT', `/chat-flow-import/${target.id}`, { ...exported, id: target.id });
    expect(asRecord.statusCode, asRecord.body).toBe(200);
    expect(asRecord.json<ChatFlowDto>()).toMatchObject({
      id: target.id,
      name: 'Destino',
      isActive: false,
      celularTeste: '5511966665555',
      flow: { name: 'Exportado' },
    });

    const bare = defaultChatFlow('Nu');
    const asGraph = await t.call(admin, 'PUT', `/chat-flow-import/${target.id}`, { ...bare, id: target.id });
    expect(asGraph.statusCode, asGraph.body).toBe(200);
    // The client's `id` is not part of the stored graph.
    expect(asGraph.json<ChatFlowDto>().flow).toEqual(bare);
    expect(asGraph.json<ChatFlowDto>()).toMatchObject({ name: 'Destino', isActive: false });
  });

  it('refuses import bodies that are neither a record nor a graph (ERR_VALIDATION) and invalid graphs', async () => {
    const target = await createFlow('Importável');
    for (const body of [
      { id: target.id },
      { id: target.id, flow: 'não é um grafo' },
      { id: target.id, flow: { nodeList: 'x' } },
      { id: target.id, nodeList: [] },
      { id: target.id, nodeList: [{ id: 'a', type: 'desconhecido' }] },
    ]) {
      const res = await t.call(admin, 'PUT', `/chat-flow-import/${target.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const notJson = await t.app.inject({
      method: 'PUT',
      url: `/api/chat-flow-import/${target.id}`,
      headers: { ...admin.auth, 'content-type': 'application/json' },
      payload: '{"nodeList": [',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ error: 'ERR_VALIDATION' });

    const invalid = await t.call(admin, 'PUT', `/chat-flow-import/${target.id}`, {
      flow: { ...menuFlow(), nodeList: menuFlow().nodeList.filter((n) => n.type !== 'configurations') },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: 'ERR_CHAT_FLOW_INVALID' });
    expect((await t.call(agent, 'GET', `/chat-flow/${target.id}`)).json()).toEqual(target);
  });
});

describe('delete', () => {
  it('is refused while an open or pending ticket runs the flow, allowed once it is closed', async () => {
    const flow = await createFlow('Em uso');
    const contact = await makeContact(t, tenant, { name: 'Cliente do fluxo' });
    const channel = await makeChannel(t, tenant);
    const ticket = await makeTicket(t, tenant, { contactId: contact, channelId: channel, chatFlowId: flow.id });
    for (const status of ['pending', 'open']) {
      await sql('update tickets set status = $1 where id = $2', [status, ticket]);
      const res = await t.call(admin, 'DELETE', `/chat-flow/${flow.id}`);
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toEqual({ error: 'ERR_AUTO_REPLY_RELATIONED_TICKET' });
    }
    expect((await t.call(agent, 'GET', `/chat-flow/${flow.id}`)).statusCode).toBe(200);
    await sql("update tickets set status = 'closed' where id = $1", [ticket]);
    expect((await t.call(admin, 'DELETE', `/chat-flow/${flow.id}`)).statusCode).toBe(200);
  });

  it('marks the flow deleted, clears the channels that start it and the botTicketActive setting naming it', async () => {
    const flow = await createFlow('Padrão');
    const other = await createFlow('Outro');
    const channel = await makeChannel(t, tenant);
    const keeps = await makeChannel(t, tenant);
    await sql('update channels set chat_flow_id = $1 where id = $2', [flow.id, channel]);
    await sql('update channels set chat_flow_id = $1 where id = $2', [other.id, keeps]);
    const setBot = (value: string) =>
      t.call(admin, 'PUT', '/settings/botTicketActive', { key: 'botTicketActive', value });
    expect((await setBot(String(flow.id))).statusCode).toBe(200);
    const published: string[] = [];
    t.platform.events.subscribe('channels.changed', ({ channel: c }) => void published.push(`channel:${c.id}`));
    t.platform.events.subscribe('settings.updated', ({ setting }) => void published.push(`setting:${setting.key}`));

    const res = await t.call(supervisor, 'DELETE', `/chat-flow/${flow.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    expect(await sql('select is_deleted from chat_flows where id = $1', [flow.id])).toEqual([{ is_deleted: true }]);
    expect(
      await sql('select id, chat_flow_id from channels where id = any($1) order by id', [[channel, keeps]]),
    ).toEqual([
      { id: channel, chat_flow_id: null },
      { id: keeps, chat_flow_id: other.id },
    ]);
    const setting = await t.call(agent, 'GET', '/settings/botTicketActive');
    expect(setting.json()).toMatchObject({ value: '' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(published.sort()).toEqual([`channel:${channel}`, 'setting:botTicketActive']);

    // A setting naming another flow stays.
    expect((await setBot(String(other.id))).statusCode).toBe(200);
    const third = await createFlow('Terceiro');
    expect((await t.call(admin, 'DELETE', `/chat-flow/${third.id}`)).statusCode).toBe(200);
    expect((await t.call(agent, 'GET', '/settings/botTicketActive')).json()).toMatchObject({ value: String(other.id) });
  });
});

describe('loadFlow (the engine read)', () => {
  it('reads a flow of the transaction tenant, deleted ones too; another tenant or a missing id gives null', async () => {
    const flow = await createFlow('Lido');
    await t.call(admin, 'DELETE', `/chat-flow/${flow.id}`);
    const read = (tenantId: number, id: number) =>
      withTenant(t.platform.db, systemContext(tenantId), (tx) => loadFlow(tx, id));
    expect(await read(tenant, flow.id)).toEqual({
      id: flow.id,
      name: 'Lido',
      isActive: true,
      isDeleted: true,
      celularTeste: null,
      flow: flow.flow,
    });
    expect(await read(outsider.tenantId, flow.id)).toBeNull();
    expect(await read(tenant, 999_999)).toBeNull();
    const locked = await withTenant(t.platform.db, systemContext(tenant), (tx) =>
      loadFlow(tx, flow.id, { lock: 'share' }),
    );
    expect(locked?.id).toBe(flow.id);
  });
});

describe('OpenAPI', () => {
  it('documents every chat-flow and auto-reply route with its schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json<{ paths: Record<string, Record<string, { requestBody?: unknown; responses?: object }>> }>()
      .paths;
    for (const [path, method] of [
      ['/chat-flow', 'post'],
      ['/chat-flow/{id}', 'put'],
      ['/chat-flow-duplicate', 'post'],
      ['/chat-flow-import/{id}', 'put'],
      ['/auto-reply/{idAutoReply}/steps/{id}', 'put'],
      ['/auto-reply-action/{id}', 'put'],
    ] as const) {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation!.requestBody, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses ?? {}), `${method} ${path}`).toContain('200');
    }
  });
});

// ---------- media ----------

type FilePart = { field?: string; name: string; mime: string; data: Buffer };
function multipart(file?: FilePart) {
  const boundary = `----conversa${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n`)];
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'medias'}"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (user: TestUser, file?: FilePart) => {
  const form = multipart(file);
  return t.app.inject({
    method: 'POST',
    url: '/api/chat-flow-media',
    payload: form.payload,
    headers: { ...user.auth, ...form.headers },
  });
};
const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
const storedFlowFiles = () =>
  fs.readdirSync(`${t.dataDir}/media`, { recursive: true }).filter((n) => /cf-/.test(String(n)));

describe('flow media', () => {
  it('stores an upload as a public file of the tenant, served with its type; another tenant id finds nothing', async () => {
    const res = await upload(supervisor, { name: 'Foto.PNG', mime: 'image/png', data: png });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ mediaUrl: string; name: string; type: string }>();
    expect(body).toEqual({
      mediaUrl: expect.stringMatching(
        new RegExp(`^https://chat\\.example\\.com/api/public/chat-flow/${tenant}/cf-[0-9a-f-]{36}\\.png$`),
      ),
      name: 'Foto.PNG',
      type: 'image',
    });
    const path = new URL(body.mediaUrl).pathname;
    const served = await t.app.inject({ method: 'GET', url: path });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toMatch(/^inline/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(png)).toBe(true);
    const elsewhere = await t.app.inject({ method: 'GET', url: path.replace(`/${tenant}/`, `/${outsider.tenantId}/`) });
    expect(elsewhere.statusCode).toBe(404);
    // Only flow files: another key of the store (chat media of the same tenant) is never served by this route.
    const chatMedia = `${crypto.randomUUID()}.png`;
    fs.mkdirSync(`${t.dataDir}/media/${tenant}`, { recursive: true });
    fs.writeFileSync(`${t.dataDir}/media/${tenant}/${chatMedia}`, png);
    const notFlow = await t.app.inject({ method: 'GET', url: `/api/public/chat-flow/${tenant}/${chatMedia}` });
    expect(notFlow.statusCode).toBe(404);
  });

  it('takes the file as `file` too, and names the type from the mime', async () => {
    for (const [mime, name, type] of [
      ['audio/mpeg', 'a.mp3', 'audio'],
      ['video/mp4', 'v.mp4', 'video'],
      ['application/pdf', 'd.pdf', 'document'],
    ] as const) {
      const res = await upload(admin, { field: 'file', name, mime, data: Buffer.from('abc') });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ name, type });
      const served = await t.app.inject({
        method: 'GET',
        url: new URL(res.json<{ mediaUrl: string }>().mediaUrl).pathname,
      });
      expect(served.headers['content-type']).toBe(mime);
    }
  });

  it('refuses agents, missing files, unknown types and oversized files, keeping nothing', async () => {
    const before = storedFlowFiles();
    const refused = await upload(agent, { name: 'a.png', mime: 'image/png', data: png });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const none = await upload(admin);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'medias' });
    const json = await t.call(admin, 'POST', '/chat-flow-media', { medias: 'x' });
    expect(json.statusCode).toBe(400);
    const exe = await upload(admin, { name: 'a.exe', mime: 'application/x-msdownload', data: Buffer.from('MZ') });
    expect(exe.statusCode).toBe(400);
    expect(exe.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const big = await upload(admin, { name: 'b.png', mime: 'image/png', data: Buffer.alloc(MAX_UPLOAD + 1) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    expect(storedFlowFiles()).toEqual(before);
  });
});

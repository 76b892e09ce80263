/**
 * /api/fastreply (multipart and JSON, the file rules, permissions) and the public files /api/public/{tenantId}/{media}.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickMessageDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { readMediaUsage } from '../tenants/index.js';

const MAX_UPLOAD = 1000;
let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;

type FilePart = { name: string; mime: string; data: Buffer };
function multipart(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----conversa${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const send = (user: TestUser, method: 'POST' | 'PUT', url: string, form: ReturnType<typeof multipart>) =>
  t.app.inject({ method, url: `/api${url}`, payload: form.payload, headers: { ...user.auth, ...form.headers } });

const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
const mp3 = Buffer.from('ID3\u0003\u0000', 'latin1');
const pngFile = (name = 'Foto Bonita.PNG'): FilePart => ({ name, mime: 'image/png', data: png });

const publicGet = (url: string) => t.app.inject({ method: 'GET', url });
const pathOf = (dto: QuickMessageDto) => new URL(dto.mediaUrl!).pathname;
const usage = () => withTenant(t.platform.db, systemContext(tenant), (tx) => readMediaUsage(tx, tenant));

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

beforeAll(async () => {
  t = await createTestApp({ MEDIA_MAX_UPLOAD_BYTES: String(MAX_UPLOAD), PUBLIC_URL: 'https://chat.example.com' });
  tenant = await t.createTenant();
  ({ admin, agent, supervisor } = await t.createStaff(tenant));
});
afterAll(() => t.close());

describe('/fastreply with JSON bodies', () => {
  it('supervisors and admins create, change and delete; every profile lists; agents are refused writes', async () => {
    const created = await t.call(supervisor, 'POST', '/fastreply/', { key: ' /ola ', message: 'Olá, {{name}}!' });
    expect(created.statusCode, created.body).toBe(201);
    const dto = created.json<QuickMessageDto>();
    expect(dto).toEqual({
      id: expect.any(Number),
      key: 'ola',
      message: 'Olá, {{name}}!',
      media: null,
      voice: 'disabled',
      mediaType: null,
      mediaUrl: null,
      isActive: true,
    });
    for (const user of [admin, agent, supervisor]) {
      expect((await t.call(user, 'GET', '/fastreply/')).json()).toEqual([dto]);
    }
    const updated = await t.call(admin, 'PUT', `/fastreply/${dto.id}`, {
      key: 'oi',
      message: 'Oi!',
      isActive: 'false',
    });
    expect(updated.json()).toMatchObject({ id: dto.id, key: 'oi', message: 'Oi!', isActive: false });
    for (const [method, url, body] of [
      ['POST', '/fastreply', { key: 'x', message: 'y' }],
      ['PUT', `/fastreply/${dto.id}`, { key: 'x', message: 'y' }],
      ['DELETE', `/fastreply/${dto.id}`, undefined],
    ] as const) {
      const res = await t.call(agent, method, url, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await t.call(supervisor, 'DELETE', `/fastreply/${dto.id}`)).statusCode).toBe(204);
    expect((await t.call(agent, 'GET', '/fastreply')).json()).toEqual([]);
  });

  it('validates the key (1-60, no spaces) and the message (required without a file, up to 4000)', async () => {
    const cases: [object, string][] = [
      [{ message: 'a' }, 'key'],
      [{ key: '   ', message: 'a' }, 'key'],
      [{ key: 'duas palavras', message: 'a' }, 'key'],
      [{ key: 'k'.repeat(61), message: 'a' }, 'key'],
      [{ key: 'semtexto' }, 'message'],
      [{ key: 'semtexto', message: '   ' }, 'message'],
      [{ key: 'longo', message: 'x'.repeat(4001) }, 'message'],
      [{ key: 'voz', message: 'a', voice: 'enabled' }, 'voice'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(admin, 'POST', '/fastreply', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    const edge = await t.call(admin, 'POST', '/fastreply', { key: 'k'.repeat(60), message: 'x'.repeat(4000) });
    expect(edge.statusCode).toBe(201);
    expect((await t.call(admin, 'GET', '/fastreply')).json()).toHaveLength(1);
    await t.call(admin, 'DELETE', `/fastreply/${edge.json<QuickMessageDto>().id}`);
  });

  it('answers 409 ERR_FAST_REPLY_EXISTS for a key in use whatever its case, and ERR_NO_FAST_REPLY_FOUND', async () => {
    const first = (
      await t.call(admin, 'POST', '/fastreply', { key: 'Preco', message: 'R$ 10' })
    ).json<QuickMessageDto>();
    const other = (
      await t.call(admin, 'POST', '/fastreply', { key: 'prazo', message: '3 dias' })
    ).json<QuickMessageDto>();
    const dup = await t.call(admin, 'POST', '/fastreply', { key: 'preco', message: 'outro' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'ERR_FAST_REPLY_EXISTS' });
    const rename = await t.call(admin, 'PUT', `/fastreply/${other.id}`, { key: 'PRECO', message: 'x' });
    expect(rename.json()).toEqual({ error: 'ERR_FAST_REPLY_EXISTS' });
    // Another tenant may use the same key.
    const { admin: outsider } = await t.createStaff(await t.createTenant());
    expect((await t.call(outsider, 'POST', '/fastreply', { key: 'preco', message: 'ok' })).statusCode).toBe(201);
    for (const [method, url] of [
      ['PUT', '/fastreply/999999'],
      ['DELETE', '/fastreply/999999'],
      ['PUT', `/fastreply/${first.id}`],
      ['DELETE', `/fastreply/${first.id}`],
    ] as const) {
      const user = url.endsWith('999999') ? admin : outsider;
      const res = await t.call(user, method, url, { key: 'z', message: 'z' });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_FAST_REPLY_FOUND' });
    }
    expect((await t.call(admin, 'GET', '/fastreply')).json()).toContainEqual(first);
    await t.call(admin, 'DELETE', `/fastreply/${first.id}`);
    await t.call(admin, 'DELETE', `/fastreply/${other.id}`);
  });
});

describe('/fastreply with files (multipart)', () => {
  it('stores the file under a random name with its extension, counts the quota and serves it publicly', async () => {
    const before = await usage();
    const res = await send(
      admin,
      'POST',
      '/fastreply/',
      multipart({ key: 'foto', message: '', voice: 'disabled' }, pngFile()),
    );
    expect(res.statusCode, res.body).toBe(201);
    const dto = res.json<QuickMessageDto>();
    expect(dto.media).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(dto).toMatchObject({ key: 'foto', message: '', voice: 'disabled', mediaType: 'image/png' });
    expect(dto.mediaUrl).toBe(`https://chat.example.com/api/public/${tenant}/${dto.media}`);
    expect(await usage()).toBe(before + png.length);

    const file = await publicGet(pathOf(dto));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
    expect(file.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cross-origin-resource-policy': 'cross-origin',
      'content-disposition': `inline; filename="${dto.media}"; filename*=UTF-8''${dto.media}`,
    });
    // Another tenant's path and an unknown name find nothing; a path-like name is refused before any look-up.
    const other = await t.createTenant();
    for (const url of [`/api/public/${other}/${dto.media}`, `/api/public/${tenant}/${'0'.repeat(8)}.png`]) {
      const res = await publicGet(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_FAST_REPLY_FOUND' });
    }
    expect((await publicGet(`/api/public/${tenant}/..%2F${dto.media}`)).statusCode).toBe(400);
    // At the root (clients built without /api), a permanent redirect to the API's path.
    const root = await publicGet(`/public/${tenant}/${dto.media}`);
    expect(root.statusCode).toBe(308);
    expect(root.headers.location).toBe(`/api/public/${tenant}/${dto.media}`);
    await t.call(admin, 'DELETE', `/fastreply/${dto.id}`);
  });

  it('documents download instead of showing inline', async () => {
    const pdf = { name: 'tabela.pdf', mime: 'application/pdf', data: Buffer.from('%PDF-1.4') };
    const dto = (
      await send(admin, 'POST', '/fastreply', multipart({ key: 'tabela', message: 'Nossa tabela' }, pdf))
    ).json<QuickMessageDto>();
    const file = await publicGet(pathOf(dto));
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="${dto.media}"; filename*=UTF-8''${dto.media}`,
    );
    expect(file.headers['content-type']).toBe('application/pdf');
    await t.call(admin, 'DELETE', `/fastreply/${dto.id}`);
  });

  it('PUT keeps the file when none is sent (or medias=null), replaces it, and removes it with removeMedia=true', async () => {
    const created = (
      await send(admin, 'POST', '/fastreply', multipart({ key: 'catalogo', message: 'Veja' }, pngFile()))
    ).json<QuickMessageDto>();
    const kept = await send(admin, 'PUT', `/fastreply/${created.id}`, multipart({ key: 'catalogo', message: 'Veja!' }));
    expect(kept.json()).toMatchObject({ media: created.media, message: 'Veja!' });
    const keptNull = await send(
      admin,
      'PUT',
      `/fastreply/${created.id}`,
      multipart({ key: 'catalogo', message: 'Veja', medias: 'null' }),
    );
    expect(keptNull.json()).toMatchObject({ media: created.media });
    const keptJson = await t.call(admin, 'PUT', `/fastreply/${created.id}`, { key: 'catalogo', message: 'Veja' });
    expect(keptJson.json()).toMatchObject({ media: created.media });

    const usageBefore = await usage();
    const voice = { name: '1717171717171.webm', mime: 'audio/webm', data: mp3 };
    const replaced = (
      await send(
        admin,
        'PUT',
        `/fastreply/${created.id}`,
        multipart({ key: 'catalogo', message: 'Ouça', voice: 'enabled' }, voice),
      )
    ).json<QuickMessageDto>();
    expect(replaced.media).toMatch(/\.webm$/);
    expect(replaced).toMatchObject({ voice: 'enabled', mediaType: 'audio/webm' });
    expect((await publicGet(pathOf(created))).statusCode).toBe(404);
    expect((await publicGet(pathOf(replaced))).statusCode).toBe(200);
    expect(await usage()).toBe(usageBefore - png.length + mp3.length);

    // Without a file the text is required again.
    const empty = await send(
      admin,
      'PUT',
      `/fastreply/${created.id}`,
      multipart({ key: 'catalogo', message: '', removeMedia: 'true' }),
    );
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'message' });
    expect((await publicGet(pathOf(replaced))).statusCode).toBe(200);

    const removed = await send(
      admin,
      'PUT',
      `/fastreply/${created.id}`,
      multipart({ key: 'catalogo', message: 'Sem arquivo', removeMedia: 'true' }),
    );
    expect(removed.json()).toMatchObject({ media: null, mediaUrl: null, mediaType: null, voice: 'disabled' });
    expect((await publicGet(pathOf(replaced))).statusCode).toBe(404);
    expect(await usage()).toBe(usageBefore - png.length);
    await t.call(admin, 'DELETE', `/fastreply/${created.id}`);
  });

  it('DELETE removes the bytes and gives the quota back', async () => {
    const before = await usage();
    const files = storedFiles().length;
    const dto = (
      await send(admin, 'POST', '/fastreply', multipart({ key: 'apagar', message: 'a' }, pngFile()))
    ).json<QuickMessageDto>();
    expect(storedFiles()).toHaveLength(files + 1);
    expect((await t.call(admin, 'DELETE', `/fastreply/${dto.id}`)).statusCode).toBe(204);
    expect(storedFiles()).toHaveLength(files);
    expect(await usage()).toBe(before);
    expect((await publicGet(pathOf(dto))).statusCode).toBe(404);
  });

  it('refuses a file too big (413) or of a refused type (400), an agent, a duplicate key: nothing stays stored', async () => {
    await t.call(admin, 'POST', '/fastreply', { key: 'existe', message: 'a' });
    const files = storedFiles().length;
    const before = await usage();
    const big = await send(
      admin,
      'POST',
      '/fastreply',
      multipart(
        { key: 'grande', message: 'a' },
        { name: 'a.pdf', mime: 'application/pdf', data: Buffer.alloc(MAX_UPLOAD + 1) },
      ),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const font = await send(
      admin,
      'POST',
      '/fastreply',
      multipart({ key: 'fonte', message: 'a' }, { name: 'x.woff2', mime: 'font/woff2', data: Buffer.from('wOF2') }),
    );
    expect(font.statusCode).toBe(400);
    expect(font.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const byAgent = await send(agent, 'POST', '/fastreply', multipart({ key: 'agente', message: 'a' }, pngFile()));
    expect(byAgent.statusCode).toBe(403);
    const dup = await send(admin, 'POST', '/fastreply', multipart({ key: 'EXISTE', message: 'a' }, pngFile()));
    expect(dup.statusCode).toBe(409);
    const badKey = await send(admin, 'POST', '/fastreply', multipart({ key: 'com espaço', message: 'a' }, pngFile()));
    expect(badKey.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'key' });
    const voiceImage = await send(
      admin,
      'POST',
      '/fastreply',
      multipart({ key: 'vozimg', voice: 'enabled' }, pngFile()),
    );
    expect(voiceImage.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'voice' });
    expect(storedFiles()).toHaveLength(files);
    expect(await usage()).toBe(before);
    expect((await t.call(admin, 'GET', '/fastreply')).json<QuickMessageDto[]>().map((q) => q.key)).toEqual(['existe']);
  });
});

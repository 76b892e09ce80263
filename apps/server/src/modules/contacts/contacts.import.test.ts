/**
 * POST /api/contacts/upload and the contacts.import job: CSV and XLSX, bad rows reported, progress and done events on
 * the importing user's socket, idempotent re-runs, refused files.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactImportProgress } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { JobDefinition } from '../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { IMPORT_CONTACTS_JOB } from './contacts.jobs.js';
import { tags } from './contacts.tables.js';
import { IMPORT_MAX_ROWS, IMPORT_MAX_UNZIPPED_BYTES } from './contacts.import.limits.js';

/** A one-entry zip (deflated); `declared` puts another uncompressed size in its headers, as a crafted bomb does. */
function zipOf(name: string, data: Buffer, options: { declared?: number } = {}): Buffer {
  const compressed = zlib.deflateRawSync(data, { level: 9 });
  const fileName = Buffer.from(name);
  const size = options.declared ?? data.length;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE(0, 42);
  const directoryOffset = local.length + fileName.length + compressed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return Buffer.concat([local, fileName, compressed, central, fileName, end]);
}

let t: TestApp;
let tenant: number;
let admin: TestUser;
let socket: Socket;
let importJob: JobDefinition<never>;
const events: ContactImportProgress[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  tenant = await t.createTenant();
  admin = await t.createUser({ tenantId: tenant, profile: 'admin', name: 'Importadora' });
  importJob = t.jobDefinitions.find((d) => d.name === IMPORT_CONTACTS_JOB)!;
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  socket = io(url, { auth: { token: admin.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  socket.on(`${tenant}:contactImport`, (payload: ContactImportProgress) => events.push(payload));
});
afterAll(async () => {
  socket.disconnect();
  await t.close();
});

async function upload(user: TestUser, file: { name: string; content: Buffer | string }, fields = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  form.append('file', new Blob([file.content]), file.name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/api/contacts/upload',
    headers: { ...user.auth, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

/** Uploads, runs the job, and resolves with the import's last event once it is done (or failed). */
async function importFile(file: { name: string; content: Buffer | string }, fields = {}) {
  const res = await upload(admin, file, fields);
  expect(res.statusCode, res.body).toBe(202);
  const { importId } = res.json<{ importId: string }>();
  expect(await t.jobs.runPending(importJob)).toBe(1);
  const until = Date.now() + 5000;
  for (;;) {
    const mine = events.filter((e) => e.importId === importId);
    const last = mine.at(-1);
    if (last && last.action !== 'progress') return { importId, events: mine, last };
    if (Date.now() > until) throw new Error('no done event');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const contactsOf = async (tenantId: number) =>
  (
    await t.database.executeSql(
      `select name, number, email, cpf, to_char(birthday_date, 'YYYY-MM-DD') as birthday,
        (select array_agg(tag_id::int order by tag_id) from contact_tags where contact_id = c.id) as tags,
        (select array_agg(user_id::int order by user_id) from contact_wallets where contact_id = c.id) as wallets
       from contacts c where tenant_id = $1 order by number`,
      [tenantId],
    )
  ).rows;

const importsDir = () => path.join(t.dataDir, 'imports');
const storedImports = () => (fs.existsSync(importsDir()) ? fs.readdirSync(importsDir()) : []);
const pendingImportJobs = async () =>
  Number(
    (await t.database.executeSql(`select count(*) as n from pgboss.job where name = $1`, [IMPORT_CONTACTS_JOB])).rows[0]
      ?.n,
  );

const CSV = [
  'Nome;Número;E-mail;CPF;Aniversário',
  'Maria Souza;(11) 91234-5678;maria@example.com;529.982.247-25;17/05/1990',
  'Sem Número;;;;',
  'Número Ruim;123;;;',
  ';5511912340000;;;',
  'CPF Ruim;5511912341111;;111.111.111-11;',
  '"Pedro; o Grande";+55 21 98765-4321;;;',
  'Maria de Novo;5511912345678;;;',
  '',
].join('\r\n');

describe('CSV import', () => {
  it('imports the good rows, reports the bad ones by row, and tells the user as it goes', async () => {
    const tagId = await withTenant(t.platform.db, systemContext(tenant), async (tx) => {
      const [row] = await tx.insert(tags).values({ tenantId: tenant, tag: 'Importados' }).returning();
      return row!.id;
    });
    const { events: seen, last } = await importFile(
      { name: 'contatos.CSV', content: CSV },
      { tags: String(tagId), wallets: `${admin.id}`, validContact: 'false' },
    );
    expect(seen[0]).toMatchObject({ action: 'progress', total: 7, processed: 0 });
    expect(last).toEqual({
      action: 'done',
      importId: expect.any(String),
      total: 7,
      processed: 7,
      created: 2,
      updated: 0,
      failed: 5,
      errors: [
        { row: 3, reason: 'ERR_VALIDATION', value: 'Sem Número' },
        { row: 4, reason: 'ERR_WAPP_INVALID_CONTACT', value: '123' },
        { row: 5, reason: 'ERR_VALIDATION', value: '5511912340000' },
        { row: 6, reason: 'ERR_INVALID_CPF_CNPJ', value: '111.111.111-11' },
        { row: 8, reason: 'ERR_DUPLICATED_CONTACT', value: '5511912345678' },
      ],
    });
    expect(await contactsOf(tenant)).toEqual([
      {
        name: 'Maria Souza',
        number: '5511912345678',
        email: 'maria@example.com',
        cpf: '529.982.247-25',
        birthday: '1990-05-17',
        tags: [tagId],
        wallets: [admin.id],
      },
      {
        name: 'Pedro; o Grande',
        number: '5521987654321',
        email: '',
        cpf: null,
        birthday: null,
        tags: [tagId],
        wallets: [admin.id],
      },
    ]);
    expect(storedImports()).toEqual([]);
  });

  it('creates nothing new when the same file is imported again, and fills only empty fields', async () => {
    const before = await contactsOf(tenant);
    const { last } = await importFile({ name: 'contatos.csv', content: CSV });
    expect(last).toMatchObject({ action: 'done', created: 0, updated: 2, failed: 5 });
    expect(await contactsOf(tenant)).toEqual(before);

    const more = 'name,number,email\nPedro Changed,5521987654321,pedro@example.com\n';
    expect((await importFile({ name: 'more.csv', content: more })).last).toMatchObject({ created: 0, updated: 1 });
    const pedro = (await contactsOf(tenant)).find((c) => c.number === '5521987654321');
    expect(pedro).toMatchObject({ name: 'Pedro; o Grande', email: 'pedro@example.com' });
  });

  it('reads Windows-1252 files, and fails (without retry) on files without the needed columns', async () => {
    const latin1 = Buffer.from('Nome,Número\nJosé Açaí,5511955554444\n', 'latin1');
    expect((await importFile({ name: 'latin1.csv', content: latin1 })).last).toMatchObject({ created: 1 });
    expect((await contactsOf(tenant)).some((c) => c.name === 'José Açaí')).toBe(true);

    const { last } = await importFile({ name: 'wrong.csv', content: 'Cliente,Telefone\nAna,5511955553333\n' });
    expect(last).toMatchObject({ action: 'failed', created: 0, errors: [{ row: 1, reason: 'ERR_VALIDATION' }] });
    expect(storedImports()).toEqual([]);
  });
});

describe('XLSX import', () => {
  it('reads the first sheet with English headers, numeric numbers and date cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Contacts');
    sheet.addRow(['Name', 'Number', 'Email', 'Birthday']);
    sheet.addRow(['Xavier Planilha', 5511933332222, 'x@example.com', new Date(Date.UTC(1985, 0, 31))]);
    sheet.addRow(['Yara Texto', '+55 31 99876-5432', '', '02/03/2001']);
    sheet.addRow(['Zero', 'not a number', '', '']);
    workbook.addWorksheet('Ignored').addRow(['Name', 'Number']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const { last } = await importFile({ name: 'planilha.xlsx', content });
    expect(last).toMatchObject({
      action: 'done',
      total: 3,
      created: 2,
      failed: 1,
      errors: [{ row: 4, reason: 'ERR_WAPP_INVALID_CONTACT', value: 'not a number' }],
    });
    const rows = await contactsOf(tenant);
    expect(rows.find((c) => c.number === '5511933332222')).toMatchObject({
      name: 'Xavier Planilha',
      email: 'x@example.com',
      birthday: '1985-01-31',
    });
    expect(rows.find((c) => c.number === '5531998765432')).toMatchObject({
      name: 'Yara Texto',
      birthday: '2001-03-02',
    });
  });

  it('reports a broken workbook as failed', async () => {
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    const { last } = await importFile({ name: 'broken.xlsx', content: broken });
    expect(last).toMatchObject({ action: 'failed' });
    expect(storedImports()).toEqual([]);
  });
});

describe('lost files', () => {
  it('reports failed when the stored file is gone by the time the job runs', async () => {
    const res = await upload(admin, { name: 'gone.csv', content: 'Nome,Número\nA,5511912345678\n' });
    const { importId } = res.json<{ importId: string }>();
    fs.rmSync(path.join(importsDir(), importId));
    expect(await t.jobs.runPending(importJob)).toBe(1);
    const until = Date.now() + 5000;
    while (!events.some((e) => e.importId === importId && e.action === 'failed')) {
      if (Date.now() > until) throw new Error('no failed event');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});

describe('refused uploads', () => {
  it('refuses the wrong type (extension or content) with 400 and too big with 413, keeping nothing', async () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(10)]);
    for (const file of [
      { name: 'contatos.txt', content: 'Nome,Número\n' },
      { name: 'contatos.csv', content: zip },
      { name: 'contatos.xlsx', content: 'Nome,Número\n' },
      { name: 'contatos.csv', content: '' },
      { name: 'contatos.csv', content: Buffer.from([0x4e, 0x00, 0x6f]) },
    ]) {
      const res = await upload(admin, file);
      expect(res.statusCode, file.name).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE', field: 'file' });
    }
    const big = await upload(admin, { name: 'big.csv', content: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE', field: 'file' });
    expect(storedImports()).toEqual([]);
  });

  it('accepts files above the 1 MB JSON body limit', async () => {
    const name = 'Pessoa com um nome bem comprido para passar de um megabyte sem passar do limite de linhas'.repeat(2);
    const rows = Array.from({ length: 9_000 }, (_, i) => `${name} ${i},55119${String(i).padStart(8, '0')}`);
    const content = `Nome,Número\n${rows.join('\n')}\n`;
    expect(content.length).toBeGreaterThan(1024 * 1024);
    const res = await upload(admin, { name: 'grande.csv', content });
    expect(res.statusCode, res.body).toBe(202);
    // Not run here: drop the job and its file.
    await t.database.executeSql(`delete from pgboss.job where name = $1`, [IMPORT_CONTACTS_JOB]);
    for (const name of storedImports()) fs.rmSync(path.join(importsDir(), name));
  });

  it('refuses a decompression bomb (honest or lying about its size) and a CSV over the row cap with 413', async () => {
    const jobsBefore = await pendingImportJobs();
    const bombs = [
      zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(IMPORT_MAX_UNZIPPED_BYTES + 1024 * 1024)),
      zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(IMPORT_MAX_UNZIPPED_BYTES + 1024 * 1024), { declared: 1000 }),
    ];
    for (const [index, content] of bombs.entries()) {
      expect(content.length, 'a few KB compressed').toBeLessThan(100 * 1024);
      const res = await upload(admin, { name: `bomba${index}.xlsx`, content });
      expect(res.statusCode, `bomb ${index}`).toBe(413);
      expect(res.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE', field: 'file' });
    }
    const rows = Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `P ${i},55119${String(i).padStart(8, '0')}`);
    const tooMany = await upload(admin, { name: 'linhas.csv', content: `Nome,Número\n${rows.join('\n')}\n` });
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE', field: 'file' });
    expect(storedImports()).toEqual([]);
    expect(await pendingImportJobs()).toBe(jobsBefore);

    // At the cap it is accepted.
    const atCap = await upload(admin, { name: 'ok.csv', content: `Nome,Número\n${rows.slice(1).join('\n')}\n` });
    expect(atCap.statusCode, atCap.body).toBe(202);
    await t.database.executeSql(`delete from pgboss.job where name = $1`, [IMPORT_CONTACTS_JOB]);
    for (const name of storedImports()) fs.rmSync(path.join(importsDir(), name));
  });

  it('refuses agents, a missing file, and tags or wallets outside the tenant', async () => {
    const agent = await t.createUser({ tenantId: tenant });
    const csv = { name: 'a.csv', content: 'Nome,Número\nA,5511912345678\n' };
    expect((await upload(agent, csv)).statusCode).toBe(403);
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/upload',
      headers: admin.auth,
      payload: { file: 'x' },
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ error: 'ERR_VALIDATION', field: 'file' });
    const foreignUser = await t.createUser({ tenantId: 1 });
    const wallets = await upload(admin, csv, { wallets: `${admin.id},${foreignUser.id}` });
    expect(wallets.json()).toEqual({ error: 'ERR_VALIDATION', field: 'wallets' });
    const tagsField = await upload(admin, csv, { tags: 'abc' });
    expect(tagsField.json()).toEqual({ error: 'ERR_VALIDATION', field: 'tags' });
    expect(storedImports()).toEqual([]);
    expect(await t.jobs.runPending(importJob)).toBe(0);
  });
});

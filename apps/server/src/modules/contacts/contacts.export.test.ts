/** POST /api/contacts/export and the public signed download: CSV and XLSX read back, bad links refused. */
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { signDownloadToken } from './contacts.export.js';
import { tags } from './contacts.tables.js';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let expected: string[][];

/** Where clients reach the server (PUBLIC_URL): the download link is absolute on it (client-contract §6). */
const PUBLIC_URL = 'https://atendimento.example.com';
const HEADER = ['Nome', 'Número', 'Email', 'CPF', 'Aniversário', 'Etiquetas', 'Informações adicionais'];

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: `${PUBLIC_URL}/` });
  tenant = await t.createTenant();
  admin = await t.createUser({ tenantId: tenant, profile: 'admin' });
  const [vip, alpha] = await withTenant(t.platform.db, systemContext(tenant), (tx) =>
    tx
      .insert(tags)
      .values([
        { tenantId: tenant, tag: 'VIP' },
        { tenantId: tenant, tag: 'Alpha' },
      ])
      .returning(),
  );
  const create = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.auth, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ContactDto>();
  };
  await create({
    name: 'Ana "Aspas"; Silva',
    number: '5511912345678',
    email: 'ana@example.com',
    cpf: '529.982.247-25',
    birthdayDate: '1990-05-07',
    tags: [vip!.id, alpha!.id],
    extraInfo: [{ name: 'Plano', value: 'Ouro, anual' }],
  });
  await create({ name: '=Fórmula', telegramId: 'tg-42' });
  // More than one page of 1000, straight into the table.
  await t.database.executeSql(
    `insert into contacts (tenant_id, name, number)
     select $1, 'Lote ' || g, '55219' || lpad(g::text, 8, '0') from generate_series(1, 1200) g`,
    [tenant],
  );
  expected = [
    [
      'Ana "Aspas"; Silva',
      '5511912345678',
      'ana@example.com',
      '529.982.247-25',
      '07/05/1990',
      'Alpha, VIP',
      '[{"name":"Plano","value":"Ouro, anual"}]',
    ],
    ['=Fórmula', '', '', '', '', '', ''],
    ...Array.from({ length: 1200 }, (_, i) => [
      `Lote ${i + 1}`,
      `55219${String(i + 1).padStart(8, '0')}`,
      '',
      '',
      '',
      '',
      '',
    ]),
  ];
});
afterAll(async () => t.close());

async function exportLink(format?: 'csv' | 'xlsx', user = admin) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/contacts/export${format ? `?format=${format}` : ''}`,
    headers: user.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { downloadLink } = res.json<{ downloadLink: string }>();
  // Absolute on PUBLIC_URL (its trailing slash dropped): clients of another origin open it as it is.
  expect(downloadLink.startsWith(`${PUBLIC_URL}/api/contacts/export/`), downloadLink).toBe(true);
  const url = new URL(downloadLink);
  expect(url.pathname).toMatch(/^\/api\/contacts\/export\/[\w-]+\.[\w-]+$/);
  return url.pathname;
}

describe('contact export', () => {
  it('writes a CSV (BOM, ";") that reads back to the contacts, downloaded without a login', async () => {
    const res = await t.app.inject({ method: 'GET', url: await exportLink('csv') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="contatos.csv"');
    expect(res.body.startsWith('\ufeff')).toBe(true);
    const rows = parse(res.body, { bom: true, delimiter: ';' }) as string[][];
    expect(rows[0]).toEqual(HEADER);
    // A leading '=' is neutralised so spreadsheets show it as text.
    expect(rows.slice(1)).toEqual(
      expected.map((row) => (row[0] === '=Fórmula' ? ["'=Fórmula", ...row.slice(1)] : row)),
    );
  });

  it('writes an XLSX (the default) that reads back to the contacts', async () => {
    const res = await t.app.inject({ method: 'GET', url: await exportLink() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe('attachment; filename="contatos.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: string[][] = [];
    sheet.eachRow((row) => rows.push(HEADER.map((_, i) => String(row.getCell(i + 1).value ?? ''))));
    expect(rows).toEqual([HEADER, ...expected]);
  });

  it('answers 404 ERR_NOT_FOUND for a forged, tampered, expired or unknown link', async () => {
    const link = await exportLink('csv');
    const token = link.split('/').pop()!;
    const [body, signature] = token.split('.');
    const file = JSON.parse(Buffer.from(body!, 'base64url').toString()).file as string;
    const expired = signDownloadToken(t.platform.secrets.jwtSecret, { file, tenantId: tenant, exp: 1 });
    const forged = signDownloadToken('another secret of enough length', { file, tenantId: tenant, exp: 2e9 });
    const tampered = `${Buffer.from(JSON.stringify({ file, tenantId: 1, exp: 2e9 })).toString('base64url')}.${signature}`;
    const missing = signDownloadToken(t.platform.secrets.jwtSecret, {
      file: '00000000-0000-0000-0000-000000000000.csv',
      tenantId: tenant,
      exp: 2e9,
    });
    for (const bad of [expired, forged, tampered, missing, 'garbage', `${token}.x`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/contacts/export/${bad}` });
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    }
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
  });

  it('is for admin and super only, and exports only the own tenant', async () => {
    const agent = await t.createUser({ tenantId: tenant });
    const res = await t.app.inject({ method: 'POST', url: '/api/contacts/export', headers: agent.auth });
    expect(res.statusCode).toBe(403);
    const other = await t.createUser({ tenantId: await t.createTenant(), profile: 'super' });
    const download = await t.app.inject({ method: 'GET', url: await exportLink('csv', other) });
    expect(parse(download.body, { bom: true, delimiter: ';' })).toEqual([HEADER]);
    const badFormat = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/export?format=pdf',
      headers: admin.auth,
    });
    expect(badFormat.statusCode).toBe(400);
  });
});

/**
 * The campaign report (issue 25): counts and each recipient's state by the same rules as the list's counts, the cap
 * of the JSON report, the CSV and XLSX exports of every recipient (page by page), and who may read them: supervisors
 * and above of the campaign's own tenant.
 */
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_REPORT_MAX_RECIPIENTS,
  campaignReportSchema,
  type CampaignDto,
  type CampaignReport,
  type CampaignReportState,
} from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket } from '../../test/ticket-fixtures.js';

let t: TestApp;
let supervisor: TestUser;
let agent: TestUser;
let channelId: number;
let campaignId: number;

const SENT_AT = '2026-11-02T12:30:00.000Z';
/** SENT_AT on tenant 1's clock (America/Sao_Paulo). */
const SENT_AT_LOCAL = '02/11/2026 09:30';

interface Recipient {
  name: string;
  state: CampaignReportState;
  /** Absent: not processed. null: processed without a message (skipped). */
  message?: { ack: number; isDelayed?: boolean; status?: string; sendError?: string } | null;
  reason?: string;
}

/** One recipient per rule of countsOf, and the edges between them. */
const RECIPIENTS: Recipient[] = [
  { name: 'Maria Pendente', state: 'pending' },
  { name: 'Bruno Bloqueado', state: 'skipped', message: null, reason: 'ERR_CONTACT_BLOCKED' },
  // A send error wins over any ack.
  { name: 'Carla Atraso', state: 'failed', message: { ack: 3, isDelayed: true, sendError: 'SEND_NOT_ON_WHATSAPP' } },
  { name: 'Davi Cancelado', state: 'failed', message: { ack: 0, status: 'canceled' } },
  { name: 'Silva, "Zé"', state: 'sent', message: { ack: 1 } },
  // Queued at the provider, no ack yet: sent, pending delivery (ack < 2).
  { name: 'Elisa Fila', state: 'sent', message: { ack: 0, status: 'pending' } },
  { name: '=HYPERLINK("http://x")', state: 'delivered', message: { ack: 2 } },
  { name: 'Fábio Leu', state: 'read', message: { ack: 3 } },
  // Played (a voice note): read.
  { name: 'Gabi Ouviu', state: 'read', message: { ack: 4 } },
];

const get = (path: string, user = supervisor) => t.call(user, 'GET', path);

async function createCampaign(name: string, user = supervisor, sessionId = channelId): Promise<number> {
  const res = await t.call(user, 'POST', '/campaigns/', { name, start: '2099-12-01 09:00', sessionId, message1: 'Oi' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CampaignDto>().id;
}

/** Writes each recipient's state straight into the rows the lane and the acks would have written. */
async function seedStates(id: number) {
  for (const [i, recipient] of RECIPIENTS.entries()) {
    const contactId = await makeContact(t, 1, { name: recipient.name, number: `55119888800${i}` });
    const added = await t.call(supervisor, 'POST', `/campaigns/contacts/${id}`, [{ id: contactId }]);
    expect(added.json()).toEqual({ added: 1 });
    if (recipient.message === undefined) continue;
    let messageId: number | null = null;
    if (recipient.message) {
      const { ack, isDelayed = false, status = 'sended', sendError = null } = recipient.message;
      const ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'closed' });
      const [message] = await queryRows<{ id: number }>(
        t.platform.db,
        sql`insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body, ack, status, is_delayed, send_error)
            values (1, ${ticketId}, ${contactId}, ${channelId}, true, 'Oi', ${ack}, ${status}, ${isDelayed}, ${sendError})
            returning id`,
      );
      messageId = message!.id;
    }
    await t.database.executeSql(
      `update campaign_contacts set processed = true, message_id = $1, message_random = $2, sent_at = $3, reason = $4
        where campaign_id = $5 and contact_id = $6`,
      [
        messageId,
        messageId === null ? null : (i % 3) + 1,
        messageId === null ? null : SENT_AT,
        recipient.reason ?? null,
        id,
        contactId,
      ],
    );
  }
}

async function report(id: number): Promise<CampaignReport> {
  const res = await get(`/campaigns/${id}/report`);
  expect(res.statusCode, res.body).toBe(200);
  return campaignReportSchema.parse(res.json());
}

beforeAll(async () => {
  t = await createTestApp();
  ({ supervisor, agent } = await t.createStaff());
  channelId = await makeChannel(t, 1, { name: 'Principal' });
  campaignId = await createCampaign('Relatório');
  await seedStates(campaignId);
});
afterAll(() => t.close());

describe('GET /campaigns/:id/report', () => {
  it('answers the campaign as the list does, its counts, and every recipient with its state in the added order', async () => {
    const body = await report(campaignId);
    const counts = {
      contactsCount: 9,
      pendentesEnvio: 1,
      pendentesEntrega: 2,
      recebidas: 3,
      lidas: 2,
      failed: 2,
      skipped: 1,
    };
    expect(body.counts).toEqual(counts);
    const listed = (await get('/campaigns/')).json<CampaignDto[]>().find((c) => c.id === campaignId);
    expect(body.campaign).toEqual(listed);
    expect(body.campaign).toMatchObject(counts);
    expect(body.truncated).toBe(false);
    expect(Date.parse(body.generatedAt)).not.toBeNaN();

    expect(body.recipients.map((r) => [r.name, r.state])).toEqual(RECIPIENTS.map((r) => [r.name, r.state]));
    expect(body.recipients[0]).toMatchObject({ state: 'pending', reason: null, messageRandom: null, sentAt: null });
    expect(body.recipients[1]).toMatchObject({ reason: 'ERR_CONTACT_BLOCKED', messageRandom: null, sentAt: null });
    // A failed send's reason is its message's send error; a canceled one has none.
    expect(body.recipients[2]).toMatchObject({ reason: 'SEND_NOT_ON_WHATSAPP', messageRandom: 3, sentAt: SENT_AT });
    expect(body.recipients[3]!.reason).toBeNull();
    expect(body.recipients[4]).toMatchObject({ number: '551198888004', messageRandom: 2, reason: null });
  });

  it('per-recipient states add up to the counts (one set of rules)', async () => {
    const { counts, recipients } = await report(campaignId);
    const n = (...states: CampaignReportState[]) => recipients.filter((r) => states.includes(r.state)).length;
    expect({
      contactsCount: recipients.length,
      pendentesEnvio: n('pending'),
      pendentesEntrega: n('sent'),
      recebidas: n('delivered', 'read'),
      lidas: n('read'),
      failed: n('failed'),
      skipped: n('skipped'),
    }).toEqual(counts);
  });

  it(`lists at most ${CAMPAIGN_REPORT_MAX_RECIPIENTS} recipients and says it was cut; the export has them all`, async () => {
    const id = await createCampaign('Grande');
    const total = CAMPAIGN_REPORT_MAX_RECIPIENTS + 2;
    // Every other contact is left out, so the recipients' ids and their contacts' ids run apart (a cursor on the
    // wrong one skips rows).
    await t.database.executeSql(
      `with made as (
         insert into contacts (tenant_id, name, number)
         select 1, case when g % 2 = 0 then 'Massa ' || lpad((g / 2)::text, 5, '0') else 'Fora ' || g end,
                '5521' || lpad(g::text, 8, '0')
           from generate_series(1, 2 * $1) g
         returning id, name)
       insert into campaign_contacts (tenant_id, campaign_id, contact_id)
       select 1, $2, id from made where name like 'Massa %' order by id`,
      [total, id],
    );
    const body = await report(id);
    expect(body.truncated).toBe(true);
    expect(body.counts.contactsCount).toBe(total);
    expect(body.recipients).toHaveLength(CAMPAIGN_REPORT_MAX_RECIPIENTS);
    expect(body.recipients[0]!.name).toBe('Massa 00001');
    expect(body.recipients.at(-1)!.name).toBe(`Massa ${String(CAMPAIGN_REPORT_MAX_RECIPIENTS).padStart(5, '0')}`);

    // Six pages of 1000, in order, none twice.
    const csv = await get(`/campaigns/${id}/report/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    const names = csv.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(';')[0]);
    expect(names).toHaveLength(total);
    expect(names).toEqual(Array.from({ length: total }, (_, i) => `Massa ${String(i + 1).padStart(5, '0')}`));
  });

  it('an empty campaign has zero counts and no recipients', async () => {
    const body = await report(await createCampaign('Vazia'));
    expect(body).toMatchObject({ recipients: [], truncated: false, counts: { contactsCount: 0, pendentesEnvio: 0 } });
  });
});

describe('GET /campaigns/:id/report/export', () => {
  it('streams a CSV attachment: Portuguese header, one row per recipient, quotes escaped, formulas neutralised', async () => {
    const res = await get(`/campaigns/${campaignId}/report/export?format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="campanha-${campaignId}.csv"; filename*=UTF-8''campanha-${campaignId}.csv`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.startsWith('\ufeff')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toEqual([
      'Nome;Número;Estado;Motivo;Mensagem;Enviada em',
      'Maria Pendente;551198888000;Aguardando envio;;;',
      'Bruno Bloqueado;551198888001;Ignorada;O contato está bloqueado: não recebe mensagens.;;',
      `Carla Atraso;551198888002;Falhou;SEND_NOT_ON_WHATSAPP;3;${SENT_AT_LOCAL}`,
      `Davi Cancelado;551198888003;Falhou;;1;${SENT_AT_LOCAL}`,
      `"Silva, ""Zé""";551198888004;Enviada;;2;${SENT_AT_LOCAL}`,
      `Elisa Fila;551198888005;Enviada;;3;${SENT_AT_LOCAL}`,
      `"'=HYPERLINK(""http://x"")";551198888006;Entregue;;1;${SENT_AT_LOCAL}`,
      `Fábio Leu;551198888007;Lida;;2;${SENT_AT_LOCAL}`,
      `Gabi Ouviu;551198888008;Lida;;3;${SENT_AT_LOCAL}`,
    ]);
  });

  it('streams an XLSX workbook with the same rows', async () => {
    const res = await get(`/campaigns/${campaignId}/report/export?format=xlsx`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain(`filename="campanha-${campaignId}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      rows.push(Array.from({ length: 6 }, (_, i) => String(row.getCell(i + 1).value ?? '')));
    });
    expect(rows).toHaveLength(RECIPIENTS.length + 1);
    expect(rows[0]).toEqual(['Nome', 'Número', 'Estado', 'Motivo', 'Mensagem', 'Enviada em']);
    expect(rows.slice(1).map((row) => row[0])).toEqual(RECIPIENTS.map((r) => r.name));
    expect(rows[5]).toEqual(['Silva, "Zé"', '551198888004', 'Enviada', '', '2', SENT_AT_LOCAL]);
    // A cell is text, never a formula: the name is stored as typed.
    expect(sheet.getRow(8).getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(rows.slice(1).map((row) => row[2])).toEqual([
      'Aguardando envio',
      'Ignorada',
      'Falhou',
      'Falhou',
      'Enviada',
      'Enviada',
      'Entregue',
      'Lida',
      'Lida',
    ]);
  });

  it('refuses a missing or unknown format with 400 ERR_VALIDATION', async () => {
    for (const query of ['?format=pdf', '', '?format=CSV']) {
      const res = await get(`/campaigns/${campaignId}/report/export${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'format' });
    }
  });
});

describe('who may read a report', () => {
  it('another tenant’s campaign, or none, answers 404 ERR_NO_CAMPAIGN_FOUND on both routes', async () => {
    const other = await t.createStaff(await t.createTenant());
    const otherChannel = await makeChannel(t, other.supervisor.tenantId);
    const ownId = await createCampaign('Do outro', other.supervisor, otherChannel);
    for (const path of [
      `/campaigns/${campaignId}/report`,
      `/campaigns/${campaignId}/report/export?format=csv`,
      `/campaigns/${campaignId}/report/export?format=xlsx`,
      '/campaigns/999999/report',
      '/campaigns/999999/report/export?format=csv',
    ]) {
      const res = await get(path, other.admin);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_CAMPAIGN_FOUND' });
    }
    // Its own campaign reads, and shows none of tenant 1's recipients.
    const own = await get(`/campaigns/${ownId}/report`, other.admin);
    expect(own.statusCode).toBe(200);
    expect(own.json<CampaignReport>().recipients).toEqual([]);
    // Nor does tenant 1 read tenant 2's.
    expect((await get(`/campaigns/${ownId}/report`)).statusCode).toBe(404);
  });

  it('an agent gets 403 ERR_NO_PERMISSION on both routes', async () => {
    for (const path of [`/campaigns/${campaignId}/report`, `/campaigns/${campaignId}/report/export?format=csv`]) {
      const res = await get(path, agent);
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });
});

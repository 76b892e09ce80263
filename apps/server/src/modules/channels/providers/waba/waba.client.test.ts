/**
 * The Graph client against the simulator over real HTTP: phone verification, paged templates and businesses, sends,
 * media upload and download, and how Graph errors are classified (permanent vs transient).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../channels.adapter.js';
import { createWabaClient, graphVersion, WabaGraphError, type WabaCreds, type WabaClient } from './waba.client.js';
import { startWabaSimulator, type WabaSimulator } from './waba.simulator.js';

let sim: WabaSimulator;
let client: WabaClient;
const creds: WabaCreds = {
  token: 'EAAG-client',
  phoneNumberId: '1100001',
  businessAccountId: '2200001',
  version: '20.0',
};

beforeAll(async () => {
  sim = await startWabaSimulator();
  client = createWabaClient({ graphUrl: sim.url });
  sim.phones.set('1100001', {
    token: 'EAAG-client',
    displayPhoneNumber: '+55 11 99999-0001',
    verifiedName: 'Loja',
    businessAccountId: '2200001',
  });
  sim.phones.set('1100002', {
    token: 'EAAG-other',
    displayPhoneNumber: '+55 11 99999-0002',
    verifiedName: 'Outra',
    businessAccountId: '2200002',
  });
});
afterAll(() => sim.close());

describe('waba client', () => {
  it('verifies a phone number: digits of the display number and the verified name', async () => {
    expect(await client.verifyPhone(creds)).toEqual({ number: '5511999990001', verifiedName: 'Loja' });
  });

  it('refuses a wrong token with a permanent Graph 190 and another owner’s number with 100', async () => {
    const wrong = await client.verifyPhone({ ...creds, token: 'nope' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(WabaGraphError);
    expect(wrong).toMatchObject({ permanent: true, status: 401, code: 190 });
    expect((wrong as Error).message).not.toContain('nope');
    const other = await client.verifyPhone({ ...creds, phoneNumberId: '1100002' }).catch((e: unknown) => e);
    expect(other).toMatchObject({ permanent: true, code: 100 });
  });

  it('follows paging.next through every template page', async () => {
    sim.templates.set(
      '2200001',
      Array.from({ length: 5 }, (_, i) => ({
        id: `90${i}`,
        name: `modelo_${i}`,
        language: 'pt_BR',
        status: 'APPROVED',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: `Olá {{1}} ${i}` }],
      })),
    );
    const templates = await client.listTemplates(creds);
    expect(templates.map((t) => t.name)).toEqual(['modelo_0', 'modelo_1', 'modelo_2', 'modelo_3', 'modelo_4']);
    expect(sim.requests.filter((r) => r.path.endsWith('/message_templates')).length).toBe(3);
  });

  it('lists businesses, their accounts and phone numbers', async () => {
    sim.businesses.set('EAAG-client', [
      { id: '3300001', name: 'Empresa', accounts: [{ id: '2200001', name: 'WABA' }] },
    ]);
    expect(await client.businessAccounts('EAAG-client')).toEqual([
      {
        id: '2200001',
        name: 'WABA',
        phoneNumbers: [{ id: '1100001', displayPhoneNumber: '+55 11 99999-0001', verifiedName: 'Loja' }],
      },
    ]);
  });

  it('sends, uploads and downloads media with the bearer token', async () => {
    const id = await client.uploadMedia(creds, {
      data: Buffer.from('PDFDATA'),
      mime: 'application/pdf',
      name: 'a.pdf',
    });
    const sent = await client.sendMessage(creds, { to: '5511988887777', type: 'document', document: { id } });
    expect(sent.id).toMatch(/^wamid\./);
    expect(sim.sends.at(-1)!.body).toMatchObject({ messaging_product: 'whatsapp', to: '5511988887777' });
    const file = await client.downloadMedia(creds, id, 1000);
    expect(file).toEqual({ data: Buffer.from('PDFDATA'), mime: 'application/pdf' });
    await expect(client.downloadMedia(creds, id, 3)).rejects.toMatchObject({ permanent: true });
  });

  it('classifies Graph errors: 131047 permanent, throttling and 5xx transient', async () => {
    const to = { to: '5511988887777', type: 'text', text: { body: 'x' } };
    sim.failNextSend({ status: 400, error: { message: 'Re-engagement message', code: 131047 } });
    await expect(client.sendMessage(creds, to)).rejects.toMatchObject({ permanent: true, code: 131047 });
    sim.failNextSend({ status: 400, error: { message: 'Rate limit hit', code: 130429 } });
    await expect(client.sendMessage(creds, to)).rejects.toMatchObject({ permanent: false, code: 130429 });
    sim.failNextSend({ status: 503, error: { message: 'Service unavailable', code: 131000 } });
    await expect(client.sendMessage(creds, to)).rejects.toMatchObject({ permanent: false });
  });

  it('puts only numeric ids and well-formed versions into URLs', async () => {
    expect(graphVersion('v21.0')).toBe('21.0');
    expect(() => graphVersion('21.0/../x')).toThrow(ProviderError);
    await expect(client.verifyPhone({ ...creds, phoneNumberId: '1/../me' })).rejects.toMatchObject({ permanent: true });
  });
});

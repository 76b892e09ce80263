/**
 * Ingestion through the WhatsApp Cloud API webhook: a waba channel whose Graph API is the in-process simulator,
 * connected as a user connects it (saved with its token, phone number id and app secret, then POST /whatsappsession,
 * which verifies the number at Graph), then customer messages posted as Meta posts them: signed with the app secret
 * (`X-Hub-Signature-256`), several messages of different customers in one POST, each POST also carrying as many
 * `statuses` (delivered receipts of messages this server never sent: an ack that finds nothing, as after a restore).
 */
import { randomBytes } from 'node:crypto';
import type { WabaSimulator } from '../../../apps/server/src/modules/channels/providers/waba/waba.simulator.js';
import { signMetaBody } from '../../../apps/server/src/modules/channels/providers/meta/meta.signature.js';
import { api } from './api.js';
import { removeLeftovers, waitConnected, type GatewayChannel } from './gateways.js';

const RUN = Date.now() % 1_000_000_000;

export async function connectWabaChannel(baseUrl: string, token: string, sim: WabaSimulator): Promise<GatewayChannel> {
  await removeLeftovers(baseUrl, token, 'waba');
  const phoneNumberId = `1${String(RUN).padStart(14, '0')}`;
  const accessToken = `EAAG-bench-${RUN}`;
  const appSecret = randomBytes(16).toString('hex');
  sim.phones.set(phoneNumberId, {
    token: accessToken,
    displayPhoneNumber: '+55 11 3000-0000',
    verifiedName: 'Bench Cloud API',
    businessAccountId: `2${String(RUN).padStart(14, '0')}`,
  });
  const created = await api<{ id: number }>(baseUrl, token, 'POST', '/whatsapp', {
    name: `Bench Cloud API ${RUN}`,
    type: 'waba',
    tokenAPI: accessToken,
    wabaId: phoneNumberId,
    bmToken: `2${String(RUN).padStart(14, '0')}`,
    metaAppSecret: appSecret,
  });
  await api(baseUrl, token, 'POST', `/whatsappsession/${created.id}`);
  await waitConnected(baseUrl, token, created.id);
  const path = `/api/webhooks/waba/${created.id}`;
  const seconds = () => String(Math.floor(Date.now() / 1000));
  const post = (items: { number: string; id: string; text: string; name: string }[]) => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: `2${String(RUN).padStart(14, '0')}`,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '551130000000', phone_number_id: phoneNumberId },
                contacts: items.map((m) => ({ wa_id: m.number, profile: { name: m.name } })),
                messages: items.map((m) => ({
                  from: m.number,
                  id: `wamid.${m.id}`,
                  timestamp: seconds(),
                  type: 'text',
                  text: { body: m.text },
                })),
                statuses: items.map((m) => ({
                  id: `wamid.out-${m.id}`,
                  status: 'delivered',
                  timestamp: seconds(),
                  recipient_id: m.number,
                  conversation: { id: `conv-${m.number}`, origin: { type: 'service' } },
                  pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
                })),
              },
            },
          ],
        },
      ],
    });
    return {
      path,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, appSecret) },
      body,
    };
  };
  return {
    id: created.id,
    kind: 'waba',
    message: (number, id, text, name) => post([{ number, id, text, name }]),
    batch: post,
  };
}

/**
 * The Messenger / Instagram adapter against the local Graph simulator: Send API payloads (window open and closed,
 * replies, uploads, files by URL, long texts), reactions, connect and disconnect, signatures, profile lookups and
 * attachment downloads.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type ChannelCredentials, type OutboundMessage } from '../../channels.adapter.js';
import { signMetaBody } from '../../providers/meta/meta.signature.js';
import { createMetaMessagingAdapter, splitText, type MetaMessagingAdapter } from './meta-messaging.adapter.js';
import { startMetaMessagingSimulator, type MetaMessagingSimulator } from './meta-messaging.simulator.js';

const PAGE = '1122334455';
const IG = '17841400000000001';
const PSID = '7001002003004005';
const IGSID = '5501002003004006';
const TOKEN = 'EAAGpage-token-messenger';

const channelOf = (type: 'messenger' | 'instagram', patch: Partial<ChannelCredentials> = {}): ChannelCredentials => ({
  id: type === 'messenger' ? 31 : 32,
  tenantId: 1,
  type,
  name: 'Loja',
  number: null,
  tokenTelegram: null,
  tokenAPI: TOKEN,
  wabaId: type === 'messenger' ? PAGE : IG,
  bmToken: null,
  wabaVersion: '21.0',
  remotePath: null,
  webhookSecret: 'hook-secret',
  metaAppSecret: 'channel-app-secret',
  providerState: {},
  routing: { queueId: null, userId: null },
  ...patch,
});

const text = (body: string, patch: Partial<OutboundMessage> = {}): OutboundMessage => ({
  to: PSID,
  body,
  mediaType: 'chat',
  media: null,
  replyToProviderMessageId: null,
  clientMessageId: '3EB0CLIENT01',
  ...patch,
});

let sim: MetaMessagingSimulator;
let messenger: MetaMessagingAdapter;
let instagram: MetaMessagingAdapter;

beforeAll(async () => {
  sim = await startMetaMessagingSimulator();
  sim.pages.set(TOKEN, { id: PAGE, name: 'Loja Exemplo', instagram: { id: IG, username: 'loja.exemplo' } });
  messenger = createMetaMessagingAdapter({ type: 'messenger', graphUrl: sim.url, appSecret: 'installation-secret' });
  instagram = createMetaMessagingAdapter({ type: 'instagram', graphUrl: sim.url, appSecret: null });
});
afterAll(async () => sim.close());
beforeEach(() => {
  sim.calls.splice(0);
  sim.closedWindows.clear();
});

const lastSend = () => sim.callsTo('POST', /\/messages$/).at(-1)!;

describe('send', () => {
  it('inside the window: RESPONSE to the page, our metadata, the page token as bearer, the channel Graph version', async () => {
    const result = await messenger.send(channelOf('messenger'), text('Oi, Maria!', { windowOpen: true }));
    expect(result).toMatchObject({ providerMessageId: expect.stringMatching(/^m_sim_/), ack: 1 });
    const call = lastSend();
    expect(call).toMatchObject({ path: `${PAGE}/messages`, version: '21.0', token: TOKEN });
    expect(call.body).toEqual({
      recipient: { id: PSID },
      messaging_type: 'RESPONSE',
      message: { text: 'Oi, Maria!', metadata: 'conversa:3EB0CLIENT01' },
    });
  });

  it('outside the window: MESSAGE_TAG with HUMAN_AGENT (a RESPONSE would be refused)', async () => {
    sim.closedWindows.add(PSID);
    await expect(messenger.send(channelOf('messenger'), text('Ainda aí?', { windowOpen: true }))).rejects.toMatchObject(
      {
        permanent: true,
        message: expect.stringContaining('outside of allowed window'),
      },
    );
    await messenger.send(channelOf('messenger'), text('Ainda aí?', { windowOpen: false }));
    expect(lastSend().body).toMatchObject({ messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' });
  });

  it('a reply names the quoted mid', async () => {
    await messenger.send(channelOf('messenger'), text('Sobre isso:', { replyToProviderMessageId: 'm_text_1' }));
    expect(lastSend().body).toMatchObject({ reply_to: { mid: 'm_text_1' }, message: { text: 'Sobre isso:' } });
  });

  it('a stored file is uploaded as multipart filedata; its text follows as a second message', async () => {
    const media = { data: Buffer.from('PNGDATA'), mime: 'image/png', name: 'nota.png' };
    const result = await messenger.send(
      channelOf('messenger'),
      text('a nota', { mediaType: 'image', media, replyToProviderMessageId: 'm_text_1', windowOpen: false }),
    );
    const [upload, caption] = sim.callsTo('POST', /\/messages$/);
    expect(upload!.body).toEqual({
      recipient: { id: PSID },
      messaging_type: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
      reply_to: { mid: 'm_text_1' },
      message: { attachment: { type: 'image', payload: { is_reusable: false } }, metadata: 'conversa:3EB0CLIENT01' },
      filedata: { name: 'nota.png', type: 'image/png', size: 7, text: 'PNGDATA' },
    });
    expect(caption!.body).toMatchObject({
      message: { text: 'a nota', metadata: 'conversa:3EB0CLIENT01:caption' },
      tag: 'HUMAN_AGENT',
    });
    expect(caption!.body.reply_to).toBeUndefined();
    // The stored message is the file's.
    expect(result.providerMessageId).toBe((upload!.answer as { message_id: string }).message_id);
  });

  it('a body that is only the file name is no text: the file goes alone', async () => {
    const media = { data: Buffer.from('PNGDATA'), mime: 'image/png', name: 'nota.png' };
    const before = sim.callsTo('POST', /\/messages$/).length;
    await messenger.send(channelOf('messenger'), text('nota.png', { mediaType: 'image', media }));
    expect(sim.callsTo('POST', /\/messages$/).length - before).toBe(1);
  });

  it('Instagram sends a stored file by its signed link (its Send API fetches attachments by URL)', async () => {
    const media = { data: Buffer.from('MP4'), mime: 'video/mp4', name: 'v.mp4' };
    const mediaUrl = 'https://conversa.example/api/media/signed-token';
    await instagram.send(channelOf('instagram'), text('', { to: IGSID, mediaType: 'video', media, mediaUrl }));
    const calls = sim.callsTo('POST', /\/messages$/);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({
      recipient: { id: IGSID },
      messaging_type: 'RESPONSE',
      message: { attachment: { type: 'video', payload: { url: mediaUrl } }, metadata: 'conversa:3EB0CLIENT01' },
    });
  });

  it('a file by URL (payload media-url) goes as an attachment with its url', async () => {
    await instagram.send(
      channelOf('instagram'),
      text('', {
        to: IGSID,
        mediaType: 'application',
        payload: { kind: 'media-url', url: 'https://files.example/manual.pdf', mediaType: 'application' },
      }),
    );
    expect(lastSend()).toMatchObject({ path: `${IG}/messages` });
    expect(lastSend().body).toMatchObject({
      recipient: { id: IGSID },
      message: { attachment: { type: 'file', payload: { url: 'https://files.example/manual.pdf' } } },
    });
  });

  it('buttons become quick replies; WhatsApp templates and lists are refused permanently', async () => {
    const buttons = { kind: 'buttons' as const, body: 'Escolha', buttons: [{ id: 'b1', title: 'Boleto' }] };
    await messenger.send(channelOf('messenger'), text('Escolha', { payload: buttons }));
    expect(lastSend().body).toMatchObject({
      message: { text: 'Escolha', quick_replies: [{ content_type: 'text', title: 'Boleto', payload: 'b1' }] },
    });
    const template = { kind: 'template' as const, name: 'x', language: 'pt_BR', components: [] };
    await expect(messenger.send(channelOf('messenger'), text('', { payload: template }))).rejects.toMatchObject({
      permanent: true,
    });
  });

  it('long texts are split (Messenger by characters, Instagram by UTF-8 bytes); only the first carries the reply', async () => {
    expect(splitText('a'.repeat(4_001), 2_000).map((p) => p.length)).toEqual([2_000, 2_000, 1]);
    expect(splitText('é'.repeat(600), 1_000, (c) => Buffer.byteLength(c)).map((p) => p.length)).toEqual([500, 100]);
    await instagram.send(
      channelOf('instagram'),
      text('ç'.repeat(501), { to: IGSID, replyToProviderMessageId: 'aW_1' }),
    );
    const [first, second] = sim.callsTo('POST', /\/messages$/);
    expect(first!.body).toMatchObject({ reply_to: { mid: 'aW_1' }, message: { metadata: 'conversa:3EB0CLIENT01' } });
    expect(second!.body).toMatchObject({ message: { text: 'ç', metadata: 'conversa:3EB0CLIENT01:1' } });
    expect(second!.body.reply_to).toBeUndefined();
  });

  it('a bad token is a permanent failure; throttling and 5xx are transient', async () => {
    const bad = messenger.send(channelOf('messenger', { tokenAPI: 'revoked' }), text('x'));
    await expect(bad).rejects.toMatchObject({ permanent: true, status: 401 });
    sim.failNext(/messages$/, 400, { message: '(#4) Application request limit reached', code: 4 });
    await expect(messenger.send(channelOf('messenger'), text('x'))).rejects.toMatchObject({ permanent: false });
    sim.failNext(/messages$/, 503, { message: 'Service temporarily unavailable', code: 2 });
    await expect(messenger.send(channelOf('messenger'), text('x'))).rejects.toMatchObject({ permanent: false });
    const none = messenger.send(channelOf('messenger', { tokenAPI: null }), text('x'));
    await expect(none).rejects.toBeInstanceOf(ProviderError);
  });

  it('a recipient that is not a Graph id never reaches a URL or a request', async () => {
    await expect(messenger.send(channelOf('messenger'), text('x', { to: '../me/accounts' }))).rejects.toMatchObject({
      permanent: true,
    });
    expect(sim.calls).toHaveLength(0);
  });
});

describe('reactions, edits, deletes', () => {
  it('react and unreact through sender_action', async () => {
    await messenger.react(channelOf('messenger'), PSID, 'm_text_1', '❤️');
    expect(lastSend().body).toEqual({
      recipient: { id: PSID },
      sender_action: 'react',
      payload: { message_id: 'm_text_1', reaction: 'love' },
    });
    await messenger.react(channelOf('messenger'), PSID, 'm_text_1', '');
    expect(lastSend().body).toEqual({
      recipient: { id: PSID },
      sender_action: 'unreact',
      payload: { message_id: 'm_text_1' },
    });
  });

  it('edit and delete are refused permanently without a call', async () => {
    await expect(messenger.edit(channelOf('messenger'), PSID, 'm_1', 'x')).rejects.toMatchObject({ permanent: true });
    await expect(instagram.delete(channelOf('instagram'), IGSID, 'm_1')).rejects.toMatchObject({ permanent: true });
    expect(sim.calls).toHaveLength(0);
  });
});

describe('start and stop', () => {
  it('start checks the page token and subscribes the app to the page messaging fields', async () => {
    const started = await messenger.start(channelOf('messenger'), 'https://x/api/webhooks/messenger/31');
    expect(started).toMatchObject({ status: 'CONNECTED', providerState: { pageId: PAGE, pageName: 'Loja Exemplo' } });
    expect(sim.callsTo('GET', /^me$/)[0]!.query.fields).toBe('id,name');
    expect(sim.callsTo('POST', /subscribed_apps$/)[0]).toMatchObject({
      path: `${PAGE}/subscribed_apps`,
      query: {
        subscribed_fields:
          'messages,messaging_postbacks,message_echoes,message_deliveries,message_reads,message_reactions',
      },
    });
    expect(sim.subscribed.has(PAGE)).toBe(true);
  });

  it('an instagram channel subscribes the page its token belongs to; stop unsubscribes it', async () => {
    const started = await instagram.start(channelOf('instagram'), 'https://x/api/webhooks/instagram/32');
    await instagram.stop(channelOf('instagram', { providerState: started.providerState }));
    expect(sim.callsTo('DELETE', /subscribed_apps$/)[0]!.path).toBe(`${PAGE}/subscribed_apps`);
    expect(sim.subscribed.has(PAGE)).toBe(false);
  });

  it('a token of another page, or a revoked one, does not connect', async () => {
    await expect(messenger.start(channelOf('messenger', { wabaId: '999' }), 'u')).rejects.toMatchObject({
      permanent: true,
    });
    await expect(messenger.start(channelOf('messenger', { tokenAPI: 'revoked' }), 'u')).rejects.toMatchObject({
      permanent: true,
    });
  });
});

describe('verifyInbound', () => {
  const raw = Buffer.from('{"object":"page","entry":[]}');
  const request = (signature?: string) => ({
    headers: signature ? { 'x-hub-signature-256': signature } : {},
    body: JSON.parse(raw.toString()) as unknown,
    rawBody: raw,
  });

  it("accepts the channel's app secret or the installation's, and nothing else", () => {
    expect(messenger.verifyInbound(channelOf('messenger'), request(signMetaBody(raw, 'channel-app-secret')))).toBe(
      true,
    );
    expect(messenger.verifyInbound(channelOf('messenger'), request(signMetaBody(raw, 'installation-secret')))).toBe(
      true,
    );
    expect(messenger.verifyInbound(channelOf('messenger'), request(signMetaBody(raw, 'other-app')))).toBe(false);
    expect(messenger.verifyInbound(channelOf('messenger'), request())).toBe(false);
    expect(messenger.verifyInbound(channelOf('messenger'), request('sha256=00'))).toBe(false);
    // Instagram adapter built without an installation secret: only the channel's.
    expect(instagram.verifyInbound(channelOf('instagram'), request(signMetaBody(raw, 'installation-secret')))).toBe(
      false,
    );
    const tampered = { ...request(signMetaBody(raw, 'channel-app-secret')), rawBody: Buffer.from('{"object":"page"}') };
    expect(messenger.verifyInbound(channelOf('messenger'), tampered)).toBe(false);
  });
});

describe('enrichInbound', () => {
  const event = (chatId: string, idField: 'messengerId' | 'instagramPK') => ({
    kind: 'message' as const,
    providerMessageId: `m_${chatId}`,
    party: { chatId, isGroup: false, name: chatId, number: null, idField },
    fromMe: false,
    timestamp: 1,
    mediaType: 'chat' as const,
    body: 'oi',
    media: null,
    quotedProviderMessageId: null,
  });

  it('fills names and pictures from the User Profile API, once per user (cached)', async () => {
    sim.profiles.set(PSID, { first_name: 'Maria', last_name: 'Souza', profile_pic: 'https://pic.example/m.jpg' });
    const adapter = createMetaMessagingAdapter({ type: 'messenger', graphUrl: sim.url });
    const events = [event(PSID, 'messengerId'), event(PSID, 'messengerId')];
    const enriched = await adapter.enrichInbound(channelOf('messenger'), events);
    expect(enriched.map((e) => 'party' in e && e.party)).toEqual([
      expect.objectContaining({ name: 'Maria Souza', profilePicUrl: 'https://pic.example/m.jpg' }),
      expect.objectContaining({ name: 'Maria Souza' }),
    ]);
    await adapter.enrichInbound(channelOf('messenger'), events);
    const lookups = sim.callsTo('GET', new RegExp(`^${PSID}$`));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]!.query.fields).toBe('first_name,last_name,profile_pic');
  });

  it('Instagram asks name and username; a failed lookup keeps the id as name and fails nothing', async () => {
    sim.profiles.set(IGSID, { name: '', username: 'cliente.ig' });
    const adapter = createMetaMessagingAdapter({ type: 'instagram', graphUrl: sim.url });
    const [found] = await adapter.enrichInbound(channelOf('instagram'), [event(IGSID, 'instagramPK')]);
    expect(found).toMatchObject({ party: { name: 'cliente.ig', username: 'cliente.ig' } });
    expect(sim.callsTo('GET', new RegExp(`^${IGSID}$`))[0]!.query.fields).toBe('name,username,profile_pic');
    const [unknown] = await adapter.enrichInbound(channelOf('instagram'), [event('424242', 'instagramPK')]);
    expect(unknown).toMatchObject({ party: { name: '424242' } });
  });
});

describe('ignoreIgStories', () => {
  const mention = {
    kind: 'message' as const,
    providerMessageId: 'aW_story',
    party: { chatId: IGSID, isGroup: false, name: IGSID, number: null, idField: 'instagramPK' as const },
    fromMe: false,
    timestamp: 1,
    mediaType: 'chat' as const,
    body: 'https://story',
    media: null,
    meta: JSON.stringify({ storyMention: true, url: 'https://story' }),
    quotedProviderMessageId: null,
  };
  const plain = { ...mention, providerMessageId: 'aW_text', body: 'oi', meta: null };

  it('drops story mentions when the tenant flag says so, reading it only for calls that carry one', async () => {
    const asked: number[] = [];
    const storiesIgnored = async (tenantId: number) => (asked.push(tenantId), true);
    const adapter = createMetaMessagingAdapter({ type: 'instagram', graphUrl: sim.url, storiesIgnored });
    const events = await adapter.enrichInbound(channelOf('instagram'), [mention, plain]);
    expect(events.map((e) => 'providerMessageId' in e && e.providerMessageId)).toEqual(['aW_text']);
    await adapter.enrichInbound(channelOf('instagram'), [plain]);
    expect(asked).toEqual([1]);
  });

  it('keeps them when the flag is off or cannot be read', async () => {
    const off = createMetaMessagingAdapter({ type: 'instagram', graphUrl: sim.url, storiesIgnored: async () => false });
    expect(await off.enrichInbound(channelOf('instagram'), [mention])).toHaveLength(1);
    const broken = createMetaMessagingAdapter({
      type: 'instagram',
      graphUrl: sim.url,
      storiesIgnored: () => Promise.reject(new Error('db down')),
    });
    expect(await broken.enrichInbound(channelOf('instagram'), [mention])).toHaveLength(1);
  });
});

describe('downloadMedia', () => {
  it('reads the attachment URL, bounded', async () => {
    sim.files.set('a.jpg', { data: Buffer.from('JPEGDATA'), type: 'image/jpeg' });
    const file = await messenger.downloadMedia(channelOf('messenger'), `${sim.url}/cdn/a.jpg`, 1_000);
    expect(file).toEqual({ data: Buffer.from('JPEGDATA'), mime: 'image/jpeg', name: null });
    await expect(messenger.downloadMedia(channelOf('messenger'), `${sim.url}/cdn/a.jpg`, 4)).rejects.toMatchObject({
      permanent: true,
    });
    await expect(
      messenger.downloadMedia(channelOf('messenger'), `${sim.url}/cdn/gone.jpg`, 1_000),
    ).rejects.toMatchObject({
      permanent: true,
      status: 404,
    });
    await expect(messenger.downloadMedia(channelOf('messenger'), 'file:///etc/passwd', 1_000)).rejects.toBeInstanceOf(
      ProviderError,
    );
  });
});

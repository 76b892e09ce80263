/**
 * The provider-identity rules without the database: the claim key of each type (the one place that computes it),
 * which edits count as an identity change, the normalised gateway base and the recognition of a claim conflict.
 */
import { describe, expect, it } from 'vitest';
import {
  gatewayBase,
  identityChanged,
  identityFieldsOf,
  isProviderKeyConflict,
  providerKeyOf,
  sameIdentity,
} from './channels.identity.js';
import type { ChannelRow } from './channels.repository.js';

const facts = (patch: Partial<ChannelRow>): ChannelRow =>
  ({
    type: 'waba',
    wabaId: null,
    tokenAPI: null,
    bmToken: null,
    metaAppSecret: null,
    tokenTelegram: null,
    instagramKey: null,
    remotePath: null,
    providerState: {},
    ...patch,
  }) as ChannelRow;

describe('providerKeyOf', () => {
  it('names each type by the id its provider routes by', () => {
    expect(providerKeyOf(facts({ type: 'waba', wabaId: '1100001' }))).toBe('waba:1100001');
    expect(providerKeyOf(facts({ type: 'messenger', wabaId: '5500001' }))).toBe('messenger:5500001');
    expect(providerKeyOf(facts({ type: 'instagram', wabaId: '1784' }))).toBe('instagram:1784');
    for (const type of ['hub', 'hub_facebook', 'hub_instagram', 'hub_email'] as const) {
      // One hub channel, one claimant, whatever network the channel says it is.
      expect(providerKeyOf(facts({ type, wabaId: 'hub-42' }))).toBe('hub:hub-42');
    }
    expect(providerKeyOf(facts({ type: 'evo', wabaId: 'inst1', remotePath: 'https://EVO.example:443/api/' }))).toBe(
      'evolution:https://evo.example/api/inst1',
    );
  });

  it('takes what the start proved when the row names nothing (page, Instagram account, bot)', () => {
    expect(providerKeyOf(facts({ type: 'messenger', providerState: { pageId: '77' } }))).toBe('messenger:77');
    expect(providerKeyOf(facts({ type: 'instagram', providerState: { instagramId: '88' } }))).toBe('instagram:88');
    expect(
      providerKeyOf(
        facts({ type: 'telegram', tokenTelegram: '7000000001:AAH-x', providerState: { botId: 7000000001 } }),
      ),
    ).toBe('telegram:7000000001');
    expect(providerKeyOf(facts({ type: 'telegram', tokenTelegram: '7000000002:AAH-y' }))).toBe('telegram:7000000002');
  });

  it('a Wuzapi user is its token (hashed, never stored in the key); long gateway keys are hashed', () => {
    const key = providerKeyOf(facts({ type: 'meow', tokenAPI: 'user-token', remotePath: 'http://wuz.local:8080' }));
    expect(key).toMatch(/^wuzapi:http:\/\/wuz\.local:8080\/[0-9a-f]{32}$/);
    expect(key).not.toContain('user-token');
    const other = providerKeyOf(facts({ type: 'meow', tokenAPI: 'other-token', remotePath: 'http://wuz.local:8080' }));
    expect(other).not.toBe(key);
    const long = providerKeyOf(facts({ type: 'evo', wabaId: 'i', remotePath: `https://e.example/${'p'.repeat(400)}` }));
    expect(long).toMatch(/^evolution:#[0-9a-f]{64}$/);
  });

  it('none for stateful sessions and for rows that name no identity', () => {
    expect(providerKeyOf(facts({ type: 'baileys', wabaId: 'x' }))).toBeNull();
    expect(providerKeyOf(facts({ type: 'whatsapp' }))).toBeNull();
    expect(providerKeyOf(facts({ type: 'waba', wabaId: '  ' }))).toBeNull();
    expect(providerKeyOf(facts({ type: 'evo', wabaId: 'i', remotePath: 'ftp://x' }))).toBeNull();
  });
});

describe('gatewayBase', () => {
  it('one spelling per gateway: host case, default port and trailing slashes do not make another', () => {
    const same = ['https://Gw.Example', 'https://gw.example/', 'https://gw.example:443//', ' https://gw.example '];
    expect(new Set(same.map(gatewayBase))).toEqual(new Set(['https://gw.example']));
    expect(gatewayBase('http://gw.example:8080/evo/')).toBe('http://gw.example:8080/evo');
    expect(gatewayBase('javascript:alert(1)')).toBeNull();
    expect(gatewayBase('not a url')).toBeNull();
  });
});

describe('identityChanged', () => {
  const stored = facts({
    type: 'waba',
    wabaId: '1100001',
    tokenAPI: 'EAAG-a',
    bmToken: '2200001',
    metaAppSecret: 's',
    wabaVersion: '20.0',
  } as Partial<ChannelRow>);

  it('any change of the provider id, token, business account or app secret', () => {
    for (const field of ['wabaId', 'tokenAPI', 'bmToken', 'metaAppSecret'] as const) {
      expect(identityChanged(stored, { [field]: 'other' }), field).toBe(true);
    }
    expect(identityChanged(stored, { wabaId: null })).toBe(true);
  });

  it('not the same values again, nor fields outside the identity', () => {
    expect(identityChanged(stored, { wabaId: '1100001', tokenAPI: 'EAAG-a', name: 'renamed' })).toBe(false);
    expect(identityChanged(stored, { wabaVersion: '21.0', farewellMessage: 'bye' })).toBe(false);
    // An empty value is no value (the form's untouched field).
    expect(identityChanged(facts({ type: 'waba', bmToken: null }), { bmToken: '' })).toBe(false);
  });

  it('per type: the bot token, the Instagram key, a gateway URL; nothing typed for stateful sessions', () => {
    expect(identityChanged(facts({ type: 'telegram', tokenTelegram: 'a' }), { tokenTelegram: 'b' })).toBe(true);
    expect(identityChanged(facts({ type: 'instagram', instagramKey: 'a' }), { instagramKey: 'b' })).toBe(true);
    expect(identityChanged(facts({ type: 'evo', remotePath: 'https://a' }), { remotePath: 'https://b' })).toBe(true);
    expect(identityChanged(facts({ type: 'hub', tokenAPI: 'a' }), { tokenAPI: 'b' })).toBe(true);
    expect(identityFieldsOf('baileys')).toEqual([]);
    expect(identityChanged(facts({ type: 'baileys', wabaId: 'a' }), { wabaId: 'b' })).toBe(false);
  });

  it('sameIdentity compares exactly those fields', () => {
    expect(sameIdentity(stored, { ...stored, name: 'x' } as ChannelRow)).toBe(true);
    expect(sameIdentity(stored, { ...stored, tokenAPI: 'EAAG-b' })).toBe(false);
  });
});

describe('isProviderKeyConflict', () => {
  it('the unique claim index only, also wrapped in a cause', () => {
    const claim = { code: '23505', constraint: 'channels_provider_key_unique' };
    expect(isProviderKeyConflict(claim)).toBe(true);
    expect(isProviderKeyConflict(new Error('wrapped', { cause: claim }))).toBe(true);
    expect(isProviderKeyConflict({ code: '23505', constraint: 'channels_tenant_default_unique' })).toBe(false);
    expect(isProviderKeyConflict({ code: '23503', constraint: 'channels_provider_key_unique' })).toBe(false);
    expect(isProviderKeyConflict(null)).toBe(false);
  });
});

/** The address check on literal addresses: nothing here connects anywhere. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import {
  addressAllowed,
  hostMatches,
  inNetwork,
  isPublicAddress,
  parseIp,
  parseNetwork,
  parseOutboundAllow,
} from './address-policy.js';

const publicOf = (text: string) => {
  const ip = parseIp(text);
  if (!ip) throw new Error(`not an IP: ${text}`);
  return isPublicAddress(ip);
};

describe('IPv4', () => {
  it.each([
    '0.0.0.0',
    '0.255.255.255',
    '10.0.0.0',
    '10.255.255.255',
    '100.64.0.0',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.0.0',
    '169.254.169.254',
    '169.254.255.255',
    '172.16.0.0',
    '172.31.255.255',
    '192.0.0.1',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.0.1',
    '192.168.255.255',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.255',
    '240.0.0.1',
    '255.255.255.255',
  ])('%s is refused', (address) => {
    expect(publicOf(address)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
  ])('%s is public', (address) => {
    expect(publicOf(address)).toBe(true);
  });
});

describe('IPv6', () => {
  it.each([
    '::',
    '::1',
    '[::1]',
    '::127.0.0.1', // IPv4-compatible (deprecated)
    '::8.8.8.8', // IPv4-compatible, even of a public address
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:7F00:0001',
    '0:0:0:0:0:ffff:10.0.0.1',
    '::ffff:a9fe:a9fe', // 169.254.169.254
    '::ffff:c0a8:101', // 192.168.1.1
    '::ffff:0:7f00:1', // IPv4-translated
    '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::1', // local-use NAT64
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
    '2002:c0a8:101::1',
    '2001::1', // Teredo
    '2001:db8::1',
    '3fff::1',
    '100::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf:ffff::1',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
  ])('%s is refused', (address) => {
    expect(publicOf(address)).toBe(false);
  });

  it.each([
    '2606:4700:4700::1111',
    '2a03:2880:f12f:83:face:b00c:0:25de',
    '2800:3f0:4001:80d::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(publicOf(address)).toBe(true);
  });

  it('a zone id, a malformed or a short form is not an address', () => {
    for (const text of ['fe80::1%eth0', '1.2.3', '1.2.3.4.5', '256.1.1.1', '::g', 'localhost', '']) {
      expect(parseIp(text), text).toBeNull();
    }
  });
});

describe('networks and the allow-list', () => {
  it('matches CIDR edges in IPv4 and IPv6', () => {
    const ten = parseNetwork('10.0.0.0/8')!;
    expect(inNetwork(parseIp('10.255.255.255')!, ten)).toBe(true);
    expect(inNetwork(parseIp('11.0.0.0')!, ten)).toBe(false);
    const odd = parseNetwork('192.168.4.0/22')!;
    expect(inNetwork(parseIp('192.168.7.255')!, odd)).toBe(true);
    expect(inNetwork(parseIp('192.168.8.0')!, odd)).toBe(false);
    expect(inNetwork(parseIp('192.168.3.255')!, odd)).toBe(false);
    const ula = parseNetwork('fd00::/8')!;
    expect(inNetwork(parseIp('fdff:ffff::1')!, ula)).toBe(true);
    expect(inNetwork(parseIp('fc00::1')!, ula)).toBe(false);
    expect(inNetwork(parseIp('10.0.0.1')!, ula)).toBe(false);
    expect(inNetwork(parseIp('8.8.8.8')!, parseNetwork('0.0.0.0/0')!)).toBe(true);
    expect(parseNetwork('10.0.0.0/33')).toBeNull();
    expect(parseNetwork('fd00::/129')).toBeNull();
    expect(parseNetwork('10.0.0.0/8/1')).toBeNull();
  });

  it('parses host names, wildcards, addresses and networks; refuses anything else', () => {
    const allow = parseOutboundAllow(' evo.internal, *.lan ,10.0.0.0/8, fd00::/8, 192.168.1.10,EVO2.Internal. ');
    expect(allow.hosts).toEqual(['evo.internal', '*.lan', 'evo2.internal']);
    expect(allow.networks.map((n) => n.prefix)).toEqual([8, 8, 32]);
    for (const bad of ['http://evo.internal', '10.0.0.0/33', 'evo internal', 'a/b', '*', '-x.lan']) {
      expect(() => parseOutboundAllow(bad), bad).toThrow();
    }
    expect(parseOutboundAllow(undefined)).toEqual({ hosts: [], networks: [] });
  });

  it('an allowed IPv4 network also admits its IPv4-mapped IPv6 form', () => {
    const allow = parseOutboundAllow('10.0.0.0/8');
    expect(addressAllowed(parseIp('::ffff:10.1.2.3')!, allow)).toBe(true);
    expect(addressAllowed(parseIp('10.1.2.3')!, allow)).toBe(true);
    expect(addressAllowed(parseIp('::ffff:11.1.2.3')!, allow)).toBe(false);
    expect(addressAllowed(parseIp('192.168.0.1')!, allow)).toBe(false);
  });

  it('a wildcard host matches sub-domains only, never a look-alike', () => {
    const list = ['*.fbcdn.net', 'lookaside.fbsbx.com'];
    expect(hostMatches('scontent.xx.fbcdn.net', list)).toBe(true);
    expect(hostMatches('lookaside.fbsbx.com', list)).toBe(true);
    expect(hostMatches('fbcdn.net', list)).toBe(false);
    expect(hostMatches('evilfbcdn.net', list)).toBe(false);
    expect(hostMatches('scontent.xx.fbcdn.net.evil.example', list)).toBe(false);
    expect(hostMatches('x.lookaside.fbsbx.com', list)).toBe(false);
  });

  it('OUTBOUND_ALLOW is validated with the configuration', () => {
    expect(loadConfig({ OUTBOUND_ALLOW: 'evo.lan,10.0.0.0/8' }).outboundAllow.hosts).toEqual(['evo.lan']);
    expect(loadConfig({}).outboundAllow).toEqual({ hosts: [], networks: [] });
    expect(() => loadConfig({ OUTBOUND_ALLOW: '10.0.0.0/40' })).toThrow(/Invalid configuration: OUTBOUND_ALLOW/);
  });
});

/**
 * Contact picture URLs: signed over tenant, contact and key; anything altered, or naming another tenant's key, fails.
 * A merge does not carry a signed picture to another contact.
 */
import { describe, expect, it } from 'vitest';
import { createMediaLinks } from '../messages/index.js';
import { AVATAR_PATH, createAvatarLinks } from './contacts.avatars.links.js';
import { mergedFields } from './contacts.merge.js';
import type { ContactRow } from './contacts.repository.js';

const links = createAvatarLinks('secret-1', 'https://api.example.com');
const tokenOf = (url: string) => url.slice(`https://api.example.com${AVATAR_PATH}`.length);

describe('avatar links', () => {
  it('round-trips its claims; the same claims give the same URL (stable), another key another URL', () => {
    const claims = { tenantId: 3, contactId: 41, key: '3/avatar-41-0123456789abcdef0123456789abcdef.jpg' };
    const url = links.url(claims);
    expect(url.startsWith(`https://api.example.com${AVATAR_PATH}`)).toBe(true);
    expect(links.url(claims)).toBe(url);
    expect(links.verify(tokenOf(url))).toEqual(claims);
    expect(links.url({ ...claims, key: '3/avatar-41-ffff.jpg' })).not.toBe(url);
  });

  it('refuses altered tokens, other secrets, media tokens, and a key of another tenant', () => {
    const token = tokenOf(links.url({ tenantId: 3, contactId: 41, key: '3/avatar-41-aa.jpg' }));
    const [body, signature] = token.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ t: 4, c: 41, k: '3/avatar-41-aa.jpg' })).toString('base64url');
    expect(links.verify(`${forgedBody}.${signature}`)).toBeNull();
    expect(links.verify(`${body}.${signature.slice(1)}A`)).toBeNull();
    expect(links.verify(body)).toBeNull();
    expect(createAvatarLinks('secret-2').verify(token)).toBeNull();
    expect(links.verify(createMediaLinks('secret-1').sign({ tenantId: 3, messageId: 41, exp: 9e9 }))).toBeNull();
    // Signed by us, but the key belongs to tenant 3 while the token names tenant 4.
    const crossed = tokenOf(links.url({ tenantId: 4, contactId: 41, key: '3/avatar-41-aa.jpg' }));
    expect(links.verify(crossed)).toBeNull();
  });
});

describe('merging contacts', () => {
  it("does not carry a source's stored picture over (its URL is signed for the source, which is deleted)", () => {
    const row = (id: number, extra: Partial<ContactRow>) => ({ id, extraInfo: [], ...extra }) as unknown as ContactRow;
    const target = row(1, { profilePicUrl: null, avatarKey: null });
    const ours = row(2, { profilePicUrl: 'https://api/x/avatar/t', avatarKey: '1/avatar-2-aa.jpg' });
    const theirs = row(3, { profilePicUrl: 'https://t.me/pic.jpg', avatarKey: null });
    expect(mergedFields(target, [ours]).profilePicUrl).toBeUndefined();
    expect(mergedFields(target, [ours, theirs]).profilePicUrl).toBe('https://t.me/pic.jpg');
  });
});

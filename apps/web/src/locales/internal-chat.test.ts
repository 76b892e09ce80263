/**
 * The internal chat between users does not exist yet: no screen mentions it (issue 23). The only strings that name it
 * are the labels of its page-size setting, which the settings screen does not show until the chat exists.
 */
import { describe, expect, it } from 'vitest';
import { TENANT_FLAG_GROUPS } from '../features/settings/components/tenant-flag-groups';

const files = import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });

/** "internal chat" / "private chat" in each language of the locale files. */
const MENTIONS = [
  /chat (interno|privado|interne|interna)/i,
  /(internal|private) chat/i,
  /interne[nrs]? chat/i,
  /czat\p{L}* wewnętrzn/iu,
  /внутренн\p{L}* чат/iu,
];
/** Kept for when the chat exists; not on any screen (see the settings test below). */
const HIDDEN = ['tenantFlags.keys.privateMessageLimit.'];

function strings(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => strings(value, path ? `${path}.${key}` : key));
}

describe('no internal chat on the screens', () => {
  it.each(Object.keys(files))('%s mentions no internal chat', (file) => {
    const found = strings(files[file])
      .filter(([path]) => !HIDDEN.some((prefix) => path.startsWith(prefix)))
      .filter(([, text]) => MENTIONS.some((mention) => mention.test(text)));
    expect(found).toEqual([]);
  });

  it('the settings screen does not offer the internal chat page size', () => {
    expect(TENANT_FLAG_GROUPS.flatMap((group) => group.keys)).not.toContain('privateMessageLimit');
  });
});

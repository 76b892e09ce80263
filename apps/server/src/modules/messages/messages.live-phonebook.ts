/**
 * Group and phone-book sync (POST /groups/sync, POST /contacts/sync): what every connected live session knows (its
 * groups, its contacts) written as the tenant's contacts in batches; names only where the tenant gave none.
 */
import { eq } from 'drizzle-orm';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { LiveOpUnsupportedError, type ChannelRow } from '../channels/index.js';
import { upsertInboundContacts, type ContactRow, type InboundContactFacts } from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { connectedChannels, maxContactId, sessionFailure, SYNC_BATCH, type LiveDeps } from './messages.live-session.js';

export interface SyncCounts {
  created: number;
  renamed: number;
}

/**
 * A name the tenant never gave: empty, or the number ingestion puts there when the provider gave no name (a group's
 * id with or without `@g.us`).
 */
const isPlaceholderName = (row: ContactRow): boolean =>
  !row.name.trim() || row.name === row.number || (row.isGroup && `${row.name}@g.us` === row.number);

/** Writes what a phone knows (its groups or its contacts) in batches; names only where the tenant gave none. */
async function upsertKnown(deps: LiveDeps, ctx: TenantContext, facts: InboundContactFacts[]): Promise<SyncCounts> {
  let created = 0;
  let renamed = 0;
  for (let i = 0; i < facts.length; i += SYNC_BATCH) {
    const batch = facts.slice(i, i + SYNC_BATCH);
    const counts = await withTenant(deps.pipeline.db, ctx, async (tx) => {
      const before = await maxContactId(tx, ctx);
      const rows = await upsertInboundContacts(tx, ctx.tenantId, batch);
      let made = 0;
      let names = 0;
      const seen = new Set<number>();
      for (const [index, row] of rows.entries()) {
        if (!row || seen.has(row.id)) continue;
        seen.add(row.id);
        if (row.id > before) {
          made += 1;
          continue;
        }
        const name = batch[index]!.name.trim();
        if (name && name !== row.name && isPlaceholderName(row)) {
          await tx.update(contacts).set({ name }).where(eq(contacts.id, row.id));
          names += 1;
        }
      }
      return { made, names };
    });
    created += counts.made;
    renamed += counts.names;
  }
  return { created, renamed };
}

/** Runs `work` for each connected live channel; channels whose session lacks the operation are skipped. */
async function perChannel<T>(
  deps: LiveDeps,
  ctx: TenantContext,
  work: (channel: ChannelRow) => Promise<T>,
): Promise<T[]> {
  const rows = await withTenant(deps.pipeline.db, ctx, (tx) => connectedChannels(tx, ctx));
  if (rows.length === 0) throw fail('ERR_WAPP_NOT_INITIALIZED');
  const results: T[] = [];
  let unsupported = 0;
  for (const row of rows) {
    try {
      results.push(await work(row));
    } catch (error) {
      if (error instanceof LiveOpUnsupportedError) unsupported += 1;
      else throw sessionFailure(error, 'ERR_CHANNEL_PROVIDER');
    }
  }
  if (unsupported === rows.length) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
  return results;
}

/** POST /groups/sync: a group contact per group of every connected session (name = subject, number = id). */
export async function syncGroups(deps: LiveDeps, ctx: TenantContext) {
  const lists = await perChannel(deps, ctx, (channel) => deps.ops().run({ op: 'listGroups', channelId: channel.id }));
  const byId = new Map(lists.flat().map((g) => [g.id, g]));
  const facts: InboundContactFacts[] = [...byId.values()].map((g) => ({
    id: g.id,
    idField: 'number',
    name: g.subject.trim() || g.id,
    number: null,
    isGroup: true,
  }));
  const counts = await upsertKnown(deps, ctx, facts);
  return { message: `${facts.length} groups synced`, total: facts.length, ...counts };
}

/** POST /contacts/sync: the phone's contacts of every connected session. */
export async function syncContacts(deps: LiveDeps, ctx: TenantContext) {
  const lists = await perChannel(deps, ctx, (channel) => deps.ops().run({ op: 'listContacts', channelId: channel.id }));
  const byNumber = new Map<string, { number: string; name: string | null }>();
  for (const c of lists.flat()) if (!byNumber.get(c.number)?.name) byNumber.set(c.number, c);
  const facts: InboundContactFacts[] = [...byNumber.values()].map((c) => ({
    id: c.number,
    idField: 'number',
    name: c.name?.trim() ?? '',
    number: c.number,
    isGroup: false,
  }));
  const counts = await upsertKnown(deps, ctx, facts);
  return { message: `${facts.length} contacts synced`, total: facts.length, ...counts };
}

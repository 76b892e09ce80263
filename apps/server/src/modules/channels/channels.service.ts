/** The tenant's channels: list, read, create, edit, delete, the default channel, and the superadmin's overview. */
import type { ChannelDto, ChannelInputParsed, TenantChannelSummary } from '@conversa/shared';
import type { Logger } from 'pino';
import type { Database, Tx } from '../../platform/db/client.js';
import { withSystem, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { toChannelDto, toCredentials, toSessionState } from './channels.dto.js';
import type { AdapterRegistry } from './channels.registry.js';
import { IDENTITY_RELEASE, identityChanged, releasesOnIdentityEdit } from './channels.identity.js';
import * as repo from './channels.repository.js';
import {
  assertTypeRules,
  channelValues,
  completeTypeInput,
  credentialChange,
  newWebhookSecret,
} from './channels.rules.js';
import './channels.events.js';

/** Queue, user and chat flow ids must be the tenant's own (a foreign key alone would accept another tenant's). */
async function assertReferences(tx: Tx, ctx: TenantContext, input: ChannelInputParsed): Promise<void> {
  for (const field of ['queueId', 'queueIdImportMessages'] as const) {
    const id = input[field];
    if (id && !(await repo.queueExists(tx, ctx.tenantId, id))) throw fail('ERR_VALIDATION', field);
  }
  if (input.userId && !(await repo.userExists(tx, ctx.tenantId, input.userId))) throw fail('ERR_VALIDATION', 'userId');
  if (input.chatFlowId && !(await repo.chatFlowExists(tx, ctx.tenantId, input.chatFlowId))) {
    throw fail('ERR_VALIDATION', 'chatFlowId');
  }
}

export function createChannelsService(deps: {
  db: Database;
  events: EventBus;
  registry: AdapterRegistry;
  logger: Logger;
  /** PUBLIC_URL (the Meta channels' webhook address in their DTO). */
  publicUrl: string;
}) {
  const { db, events, registry, logger } = deps;
  const toDto = (row: repo.ChannelRow) => toChannelDto(row, deps.publicUrl);

  const publishChanged = (ctx: TenantContext, rows: repo.ChannelRow[]) => {
    for (const row of rows) events.publish('channels.changed', { tenantId: ctx.tenantId, channel: toDto(row) });
  };

  /** Unregisters a webhook the channel no longer owns; failure is logged, the provider gives up on its own. */
  function releaseQuietly(row: repo.ChannelRow): void {
    const adapter = registry.forType(row.type);
    if (!adapter || row.status === 'DISCONNECTED') return;
    adapter.stop(toCredentials(row)).catch((error: unknown) => {
      logger.warn({ err: error, channelId: row.id }, 'could not release the old provider connection');
    });
  }

  function assertCreatable(input: ChannelInputParsed): void {
    if (!registry.forType(input.type)) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED', 'type');
    assertTypeRules(input);
  }

  async function insertWithinLimit(tx: Tx, ctx: TenantContext, input: ChannelInputParsed) {
    const limit = await repo.lockTenantLimit(tx, ctx.tenantId);
    if (limit === undefined) throw fail('ERR_NO_TENANT_FOUND');
    const existing = await repo.countChannels(tx, ctx.tenantId);
    if (existing >= limit) throw fail('ERR_CONNECTION_LIMIT');
    // The tenant's first channel is its default, so tickets always have somewhere to go.
    const isDefault = Boolean(input.isDefault) || existing === 0;
    const cleared = isDefault ? await repo.clearDefault(tx, ctx.tenantId, 0) : [];
    const values = { ...channelValues(input), name: input.name, type: input.type, isDefault };
    const row = await repo.insertChannel(tx, ctx.tenantId, { ...values, webhookSecret: newWebhookSecret() });
    return [...cleared, row];
  }

  return {
    listChannels: (ctx: TenantContext): Promise<ChannelDto[]> =>
      withTenant(db, ctx, async (tx) => (await repo.listChannels(tx, ctx.tenantId)).map(toDto)),

    async getChannel(ctx: TenantContext, id: number): Promise<ChannelDto> {
      const row = await withTenant(db, ctx, (tx) => repo.findChannel(tx, ctx.tenantId, id));
      if (!row) throw fail('ERR_NO_WAPP_FOUND');
      return toDto(row);
    },

    async createChannel(ctx: TenantContext, input: ChannelInputParsed): Promise<ChannelDto> {
      const rows = await withTenant(db, ctx, async (tx) => {
        // Gateway channels take the tenant's API URL and key when the form leaves them empty.
        const complete = completeTypeInput(input, undefined, await repo.findGatewayDefaults(tx, ctx.tenantId));
        assertCreatable(complete);
        await assertReferences(tx, ctx, complete);
        // Two Evolution channels on one instance would take each other's webhook.
        if (complete.type === 'evo' && (await repo.evolutionInstanceTaken(tx, ctx.tenantId, complete.wabaId!))) {
          throw fail('ERR_VALIDATION', 'name');
        }
        return insertWithinLimit(tx, ctx, complete);
      });
      publishChanged(ctx, rows);
      return toDto(rows.at(-1)!);
    },

    async updateChannel(ctx: TenantContext, id: number, input: ChannelInputParsed): Promise<ChannelDto> {
      const { before, rows, identity } = await withTenant(db, ctx, async (tx) => {
        const existing = await repo.lockChannel(tx, ctx.tenantId, id);
        if (!existing) throw fail('ERR_NO_WAPP_FOUND');
        input = completeTypeInput(input, existing);
        assertTypeRules(input, existing);
        await assertReferences(tx, ctx, input);
        const values = { ...channelValues(input, existing), ...credentialChange(input, existing) };
        // Another provider id, token or app secret is another identity: only a new start proves it (the claim goes).
        const identity = identityChanged(existing, values);
        if (identity) Object.assign(values, IDENTITY_RELEASE);
        const cleared = input.isDefault ? await repo.clearDefault(tx, ctx.tenantId, id) : [];
        if (input.isDefault !== undefined) values.isDefault = input.isDefault;
        const row = await repo.updateChannel(tx, ctx.tenantId, id, values);
        return { before: existing, rows: [...cleared, row!], identity };
      });
      const after = rows.at(-1)!;
      const released = identity && releasesOnIdentityEdit(before.type);
      if (released || after.webhookSecret !== before.webhookSecret) releaseQuietly(before);
      publishChanged(ctx, rows);
      if (after.status !== before.status) {
        events.publish('channels.session_changed', { tenantId: ctx.tenantId, session: toSessionState(after) });
      }
      return toDto(after);
    },

    async deleteChannel(ctx: TenantContext, id: number): Promise<void> {
      const row = await withTenant(db, ctx, async (tx) => {
        const found = await repo.lockChannel(tx, ctx.tenantId, id);
        if (!found) throw fail('ERR_NO_WAPP_FOUND');
        await repo.deleteChannel(tx, ctx.tenantId, id);
        return found;
      });
      releaseQuietly(row);
      events.publish('channels.deleted', { tenantId: ctx.tenantId, channelId: id });
    },

    async setDefault(ctx: TenantContext, id: number): Promise<ChannelDto> {
      const rows = await withTenant(db, ctx, async (tx) => {
        if (!(await repo.lockChannel(tx, ctx.tenantId, id))) throw fail('ERR_NO_WAPP_FOUND');
        const cleared = await repo.clearDefault(tx, ctx.tenantId, id);
        return [...cleared, (await repo.updateChannel(tx, ctx.tenantId, id, { isDefault: true }))!];
      });
      publishChanged(ctx, rows);
      return toDto(rows.at(-1)!);
    },

    async removePicture(ctx: TenantContext, id: number): Promise<ChannelDto> {
      const row = await withTenant(db, ctx, (tx) => repo.updateChannel(tx, ctx.tenantId, id, { profilePic: null }));
      if (!row) throw fail('ERR_NO_WAPP_FOUND');
      publishChanged(ctx, [row]);
      return toDto(row);
    },

    /** Every tenant's channels without their settings (superadmin only; the route checks the profile). */
    listAllTenantsChannels: (): Promise<TenantChannelSummary[]> =>
      withSystem(db, 'channels.superadmin', async (tx) =>
        (await repo.listAllChannels(tx)).map((row) => ({
          id: row.id,
          tenantId: row.tenantId,
          name: row.name,
          type: row.type,
          number: row.number,
          status: row.status,
          isDefault: row.isDefault,
          updatedAt: row.updatedAt.toISOString(),
        })),
      ),
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;

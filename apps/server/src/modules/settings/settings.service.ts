/**
 * Tenant settings: read every key (stored value or default), change one. Toggle keys take only enabled/disabled, and
 * the three ticket-visibility switches may never all be on at once (product-spec §5).
 */
import {
  ENABLED,
  DISABLED,
  TOGGLE_SETTING_KEYS,
  VISIBILITY_SETTING_KEYS,
  isSettingKey,
  violatesVisibilityCombination,
  type SettingDto,
  type SettingKey,
} from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { findSetting, listSettings, lockSettings, upsertSetting } from './settings.repository.js';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'settings.updated': { tenantId: number; setting: SettingDto };
  }
}

export interface SettingsService {
  listTenantSettings(ctx: TenantContext): Promise<SettingDto[]>;
  getSetting(ctx: TenantContext, key: string): Promise<SettingDto>;
  updateSetting(ctx: TenantContext, input: { key: string; value: string }): Promise<SettingDto>;
}

const toggleKeys = new Set<SettingKey>(TOGGLE_SETTING_KEYS);

export function createSettingsService(deps: { db: Database; events: EventBus }): SettingsService {
  return {
    listTenantSettings: (ctx) => withTenant(deps.db, ctx, (tx) => listSettings(tx, ctx.tenantId)),

    async getSetting(ctx, key) {
      if (!isSettingKey(key)) throw fail('ERR_NO_SETTING_FOUND');
      const value = await withTenant(deps.db, ctx, (tx) => findSetting(tx, ctx.tenantId, key));
      return { key, value };
    },

    async updateSetting(ctx, input) {
      const { key, value } = input;
      if (!isSettingKey(key)) throw fail('ERR_VALIDATION', 'key');
      if (toggleKeys.has(key) && value !== ENABLED && value !== DISABLED) throw fail('ERR_VALIDATION', 'value');
      const setting = await withTenant(deps.db, ctx, async (tx) => {
        if ((VISIBILITY_SETTING_KEYS as readonly string[]).includes(key)) {
          // Lock the visibility rows so two admins switching on the last two keys at once cannot both pass the check.
          const current = await lockSettings(tx, ctx.tenantId, VISIBILITY_SETTING_KEYS);
          if (violatesVisibilityCombination({ ...current, [key]: value })) {
            throw fail('ERR_SETTINGS_VISIBILITY_COMBINATION');
          }
        }
        await upsertSetting(tx, ctx.tenantId, key, value);
        return { key, value };
      });
      deps.events.publish('settings.updated', { tenantId: ctx.tenantId, setting });
      return setting;
    },
  };
}

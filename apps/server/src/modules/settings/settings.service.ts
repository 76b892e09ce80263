/**
 * Tenant settings: read every key (stored value or default), change one. Toggle keys take only enabled/disabled, and
 * the three ticket-visibility switches may never all be on at once (product-spec §5). Unknown keys are accepted and
 * ignored. Switching `autoClose` on records when (inactivity is counted from then at the earliest). Credentials never leave the
 * server: not in a read, not in a write's answer, not in the event every socket of the tenant receives.
 */
import {
  ENABLED,
  DISABLED,
  TOGGLE_SETTING_KEYS,
  VISIBILITY_SETTING_KEYS,
  isAutoCloseTime,
  isSecretSettingKey,
  isSettingKey,
  violatesVisibilityCombination,
  type SettingDto,
  type SettingKey,
} from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { findSetting, listSettings, lockSettings, markAutoCloseSince, upsertSetting } from './settings.repository.js';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'settings.updated': { tenantId: number; setting: SettingDto };
  }
}

export interface SettingsService {
  listTenantSettings(ctx: TenantContext): Promise<SettingDto[]>;
  getSetting(ctx: TenantContext, key: string): Promise<SettingDto>;
  updateSetting(ctx: TenantContext, input: { key: string; value: unknown }): Promise<SettingDto>;
}

const toggleKeys = new Set<SettingKey>(TOGGLE_SETTING_KEYS);
/** The longest value a known key stores (characters). */
export const SETTING_VALUE_MAX_LENGTH = 4000;

/** What a client may see of a stored setting. */
export function toSettingDto(key: string, value: string): SettingDto {
  return isSecretSettingKey(key) ? { key, value: '', configured: value !== '' } : { key, value };
}

export function createSettingsService(deps: { db: Database; events: EventBus }): SettingsService {
  return {
    listTenantSettings: async (ctx) =>
      (await withTenant(deps.db, ctx, (tx) => listSettings(tx, ctx.tenantId))).map((s) => toSettingDto(s.key, s.value)),

    async getSetting(ctx, key) {
      if (!isSettingKey(key)) throw fail('ERR_NO_SETTING_FOUND');
      const value = await withTenant(deps.db, ctx, (tx) => findSetting(tx, ctx.tenantId, key));
      return toSettingDto(key, value);
    },

    async updateSetting(ctx, input) {
      const { key } = input;
      // Client item 8 of issue 23: clients of the family write keys this product does not have (other versions'
      // switches); they are accepted and ignored: nothing stored, no event, the answer echoes what was sent.
      if (!isSettingKey(key)) {
        const echoed = typeof input.value === 'string' && input.value.length <= SETTING_VALUE_MAX_LENGTH;
        return { key, value: echoed ? (input.value as string) : '' };
      }
      const { value } = input;
      if (typeof value !== 'string' || value.length > SETTING_VALUE_MAX_LENGTH) throw fail('ERR_VALIDATION', 'value');
      if (toggleKeys.has(key) && value !== ENABLED && value !== DISABLED) throw fail('ERR_VALIDATION', 'value');
      // product-spec §9: the inactivity options 10 min, 1 h, 1 day, 5 days, 10 days (minutes).
      if (key === 'autoCloseTime' && !isAutoCloseTime(value)) throw fail('ERR_VALIDATION', 'value');
      const setting = await withTenant(deps.db, ctx, async (tx) => {
        if ((VISIBILITY_SETTING_KEYS as readonly string[]).includes(key)) {
          // Lock the visibility rows so two admins switching on the last two keys at once cannot both pass the check.
          const current = await lockSettings(tx, ctx.tenantId, VISIBILITY_SETTING_KEYS);
          if (violatesVisibilityCombination({ ...current, [key]: value })) {
            throw fail('ERR_SETTINGS_VISIBILITY_COMBINATION');
          }
        }
        if (key === 'autoClose' && value === ENABLED) {
          // Switched on now (it was off): inactivity counts from this moment, never from before (issue 23).
          const { autoClose } = await lockSettings(tx, ctx.tenantId, ['autoClose']);
          if (autoClose !== ENABLED) await markAutoCloseSince(tx, ctx.tenantId);
        }
        // An empty credential is the blank field the client was shown, not a request to erase the stored one.
        if (isSecretSettingKey(key) && value === '') return toSettingDto(key, await findSetting(tx, ctx.tenantId, key));
        await upsertSetting(tx, ctx.tenantId, key, value);
        return toSettingDto(key, value);
      });
      deps.events.publish('settings.updated', { tenantId: ctx.tenantId, setting });
      return setting;
    },
  };
}

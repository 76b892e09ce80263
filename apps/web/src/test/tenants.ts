/** The caller's own tenant for tests, in the shape of GET /tenants/undefined's element (shared tenantDtoSchema). */
import { tenantDtoSchema, type TenantDto } from '@conversa/shared';

export function tenantFixture(overrides: Partial<TenantDto> = {}): TenantDto {
  // Parsed, so a fixture that drifts from the contract fails here rather than passing silently.
  return tenantDtoSchema.parse({
    id: 1,
    status: 'active',
    name: 'Empresa',
    identity: null,
    maxUsers: 10,
    maxConnections: 5,
    trial: 'disabled',
    trialPeriod: 0,
    hideUnoficial: false,
    mediaQuotaBytes: null,
    wuzapiHost: null,
    evoHost: null,
    evoTokenConfigured: false,
    metaTokenConfigured: false,
    wabaTokenConfigured: false,
    hubTokenConfigured: false,
    timezone: 'America/Sao_Paulo',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });
}

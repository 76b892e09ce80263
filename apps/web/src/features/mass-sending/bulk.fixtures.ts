/** Batches for the feature's tests, parsed so a fixture that drifts from the contract fails. */
import { bulkBatchDtoSchema, type BulkBatchDto } from './api/bulk';

export function batchFixture(id: number, overrides: Partial<BulkBatchDto> = {}): BulkBatchDto {
  return bulkBatchDtoSchema.parse({
    id,
    status: 'processing',
    channelId: 3,
    userId: 7,
    min: 20,
    max: 40,
    total: 2,
    pendentesEnvio: 2,
    pendentesEntrega: 0,
    recebidas: 0,
    lidas: 0,
    failed: 0,
    skipped: 0,
    createdAt: '2026-11-27T12:00:00.000Z',
    finishedAt: null,
    ...overrides,
  });
}

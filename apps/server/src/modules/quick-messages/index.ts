/**
 * Quick messages (`/fastreply`, client-contract §8) and their public files. The messages module sends a quick
 * message's file into a ticket through `findQuickMessageFile`, without a new upload.
 */
import path from 'node:path';
import type { AppModule } from '../../kernel/module.js';
import { createMediaStore } from '../../platform/storage/media-store.js';
import { withMediaQuota } from '../../platform/storage/media-quota.js';
import { createMediaQuota } from '../tenants/index.js';
import { quickMessagesRoutes } from './quick-messages.routes.js';
import { createQuickMessagesService } from './quick-messages.service.js';

export { findQuickMessage as findQuickMessageRow } from './quick-messages.repository.js';
export type { QuickMessageRow } from './quick-messages.repository.js';

export const quickMessagesModule: AppModule = (platform) => {
  // The same store and quota as chat media: one tenant's bytes, one counter.
  const store = withMediaQuota(
    createMediaStore({ root: path.join(platform.config.dataDir, 'media'), s3: platform.config.mediaS3 }),
    createMediaQuota(platform.db, platform.config.mediaTenantQuotaBytes),
  );
  const service = createQuickMessagesService({ db: platform.db, store, publicUrl: platform.config.publicUrl });
  return {
    plugin: quickMessagesRoutes({ service, store, maxUploadBytes: platform.config.mediaMaxUploadBytes }),
  };
};

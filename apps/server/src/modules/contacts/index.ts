import path from 'node:path';
import type { AppModule } from '../../kernel/module.js';
import { outboundFetchOf } from '../../platform/net/outbound.js';
import { createMediaStore } from '../../platform/storage/media-store.js';
import { withMediaQuota } from '../../platform/storage/media-quota.js';
import { createMediaQuota } from '../tenants/index.js';
import { createContactAvatars, type ContactAvatars } from './contacts.avatars.js';
import { createAvatarFetch } from './contacts.avatars.fetch.js';
import { createAvatarLinks } from './contacts.avatars.links.js';
import { contactAvatarRoutes } from './contacts.avatars.routes.js';
import { createExportService } from './contacts.export.js';
import { contactFilesRoutes } from './contacts.files.routes.js';
import { createImportService } from './contacts.import.service.js';
import { createContactsJobs } from './contacts.jobs.js';
import { createMergeService } from './contacts.merge.js';
import { registerContactsRealtime } from './contacts.realtime.js';
import { contactsRoutes } from './contacts.routes.js';
import { createContactsService } from './contacts.service.js';

export { AVATAR_MAX_BYTES } from './contacts.avatars.fetch.js';
export { AVATAR_PATH, createAvatarLinks } from './contacts.avatars.links.js';
export {
  avatarPayloadSchema,
  claimContactAvatars,
  CONTACT_AVATAR_JOB,
  type AvatarPayload,
  type ContactAvatars,
  type PictureSource,
} from './contacts.avatars.js';
export { ninthDigitForms } from './contacts.number.js';
export { CLEANUP_CONTACT_FILES_JOB, IMPORT_CONTACTS_JOB } from './contacts.jobs.js';
export type { ContactsService } from './contacts.service.js';
export { loadContactDtos, toContactDto } from './contacts.dto.js';
export { contactSetColumns } from './contacts.repository.js';
export {
  CONTACT_SEARCH_KEYS,
  contactSearch,
  contactsMatching,
  searches,
  type ContactSearchKey,
  type ContactSearchShape,
} from './contacts.search.js';

/** Each app's contact pictures (the inbox module runs their jobs on the sessions' owners). */
const avatarsByPlatform = new WeakMap<object, ContactAvatars>();

export function contactAvatarsOf(platform: object): ContactAvatars {
  const avatars = avatarsByPlatform.get(platform);
  if (!avatars) throw new Error('the contacts module is not registered yet');
  return avatars;
}

export const contactsModule: AppModule = (platform) => {
  const { db, events, jobs, config, secrets } = platform;
  const importsDir = path.join(config.dataDir, 'imports');
  const exportsDir = path.join(config.dataDir, 'exports');
  const contactsJobs = createContactsJobs({ db, events, importsDir, exportsDir });
  const service = createContactsService({ db, events, logger: platform.logger.child({ module: 'contacts' }) });
  const files = contactFilesRoutes({
    imports: createImportService({ db, jobs, importJob: contactsJobs.importContacts }),
    exports: createExportService({ db, exportsDir, secret: secrets.jwtSecret, publicUrl: config.publicUrl }),
    merge: createMergeService({ db, events }),
    importsDir,
  });
  registerContactsRealtime(events, platform.realtime);
  const avatars = createContactAvatars({
    db,
    events,
    store: withMediaQuota(
      createMediaStore({ root: path.join(config.dataDir, 'media'), s3: config.mediaS3 }),
      createMediaQuota(db, config.mediaTenantQuotaBytes),
    ),
    links: createAvatarLinks(secrets.jwtSecret, config.publicUrl),
    // The Baileys simulator's CDN (a test hook, like BAILEYS_SOCKET_MODULE) besides WhatsApp's own.
    fetchAvatar: createAvatarFetch({
      extraOrigins: config.baileysSimulatorUrl ? [new URL(config.baileysSimulatorUrl).origin] : [],
      fetch: outboundFetchOf(config),
    }),
    logger: platform.logger.child({ module: 'contact-avatars' }),
  });
  avatarsByPlatform.set(platform, avatars);
  return {
    plugin: async (app) => {
      await app.register(contactsRoutes(service));
      await app.register(files);
      await app.register(contactAvatarRoutes(avatars));
    },
    jobs: [contactsJobs.importContacts, contactsJobs.cleanupFiles] as never[],
  };
};
export {
  applyInboundContactUpdate,
  findInboundContactId,
  upsertInboundContact,
  upsertInboundContacts,
} from './contacts.inbound.js';
export type { InboundContactFacts, InboundIdField } from './contacts.inbound.js';
export type { ContactRow } from './contacts.repository.js';

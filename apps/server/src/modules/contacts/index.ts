import path from 'node:path';
import type { AppModule } from '../../modules.js';
import { createExportService } from './contacts.export.js';
import { contactFilesRoutes } from './contacts.files.routes.js';
import { createImportService } from './contacts.import.service.js';
import { createContactsJobs } from './contacts.jobs.js';
import { createMergeService } from './contacts.merge.js';
import { registerContactsRealtime } from './contacts.realtime.js';
import { contactsRoutes } from './contacts.routes.js';
import { createContactsService } from './contacts.service.js';

export { contacts, contactTags, contactWallets, tags } from './contacts.tables.js';
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

export const contactsModule: AppModule = (platform) => {
  const { db, events, jobs, config, secrets } = platform;
  const importsDir = path.join(config.dataDir, 'imports');
  const exportsDir = path.join(config.dataDir, 'exports');
  const contactsJobs = createContactsJobs({ db, events, importsDir, exportsDir });
  const service = createContactsService({ db, events });
  const files = contactFilesRoutes({
    imports: createImportService({ db, jobs, importJob: contactsJobs.importContacts }),
    exports: createExportService({ db, exportsDir, secret: secrets.jwtSecret }),
    merge: createMergeService({ db, events }),
    importsDir,
  });
  registerContactsRealtime(events, platform.realtime);
  return {
    plugin: async (app) => {
      await app.register(contactsRoutes(service));
      await app.register(files);
    },
    jobs: [contactsJobs.importContacts, contactsJobs.cleanupFiles] as never[],
  };
};
export { applyInboundContactUpdate, upsertInboundContact, upsertInboundContacts } from './contacts.inbound.js';
export type { InboundContactFacts, InboundIdField } from './contacts.inbound.js';
export type { ContactRow } from './contacts.repository.js';

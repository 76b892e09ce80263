import type { AppModule } from '../../kernel/module.js';
import { registerNotesRealtime } from './notes.realtime.js';
import { notesRoutes } from './notes.routes.js';
import { createNotesService } from './notes.service.js';

export { visibleTicketSql } from './notes.visibility.js';

export const notesModule: AppModule = (platform) => {
  const { db, events, realtime } = platform;
  registerNotesRealtime({ db, events, realtime });
  return { plugin: notesRoutes(createNotesService({ db, events })) };
};

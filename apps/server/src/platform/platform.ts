/** What the composition root hands to modules: infrastructure only, no domain. */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import type { EventBus } from './events/bus.js';
import type { TokenService } from './http/tokens.js';
import type { JobQueue } from './jobs/queue.js';
import type { Realtime } from './realtime/server.js';
import type { Secrets } from './secrets.js';

export interface Platform {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  jobs: JobQueue;
  events: EventBus;
  tokens: TokenService;
  secrets: Secrets;
  logger: Logger;
  /** Set once the HTTP server exists (buildApp); realtime listeners use it. */
  realtime: Realtime;
}

import type { AppModule } from '../../kernel/module.js';
import type { Platform } from '../../platform/platform.js';
import { createTicketsBulk } from './tickets.bulk.js';
import { createTicketCreation } from './tickets.create.js';
import { createAutoCloseJob } from './tickets.autoclose.js';
import { autoClosePreviewRoutes } from './tickets.autoclose.routes.js';
import { createTicketsJobs } from './tickets.jobs.js';
import { createTicketList } from './tickets.list.js';
import { createTicketPanel } from './tickets.panel.js';
import type { TicketChatbotPort, TicketMessagingPort } from './tickets.port.js';
import { registerTicketsRealtime } from './tickets.realtime.js';
import { ticketsRoutes } from './tickets.routes.js';
import { createTicketsService } from './tickets.service.js';

export { allocateProtocol } from './tickets.protocol.js';
export { assertMayReadConversation, findVisibleTicket, lockVisibleTicket, ticketAudiences } from './tickets.access.js';
// The rules of POST /tickets that scheduled messages apply too (at create and again at send).
export { mayUseChannel } from './tickets.rules.js';
export { findActiveTicket } from './tickets.repository.js';
export {
  distributeTicket,
  distributionModeOf,
  type DistributionOptions,
  type DistributionReason,
  type DistributionResult,
} from './tickets.distribution.js';
export { loadTicketDto, loadTicketDtos } from './tickets.dto.js';
export { customerWindowOf, hasCustomerWindow, windowFrom, type CustomerWindow } from './tickets.window.js';
export {
  ACCESS_OPTIONS,
  conversationReadable,
  TICKET_COLUMNS,
  ticketVisibility,
  storedVisibilitySettings,
  type Viewer,
  type TicketRef,
} from './tickets.policy.js';
export type { TicketRow } from './tickets.repository.js';
export type { SystemMedia, SystemSendType, TicketChatbotPort, TicketMessagingPort } from './tickets.port.js';
export {
  closedPatch,
  contactHadEarlierTicket,
  lockTicketAsSystem,
  logTicketAsSystem,
  queueOfTenant,
  updateTicketAsSystem,
  userOfTenant,
  type TicketPatch,
} from './tickets.bot.js';
export { CLOSE_AFTER_FAREWELL_JOB } from './tickets.jobs.js';
export { AUTO_CLOSE_JOB } from './tickets.autoclose.js';

/**
 * The tickets module; the messages module supplies the messaging port and the chatbot module the chatbot port (both
 * import tickets, so tickets cannot import them).
 */
export function createTicketsModule(
  messagingFor: (platform: Platform) => TicketMessagingPort,
  chatbotFor?: (platform: Platform) => TicketChatbotPort,
): AppModule {
  return (platform) => {
    const { db, events } = platform;
    const messaging = messagingFor(platform);
    const jobs = createTicketsJobs({ db, events });
    const chatbot = chatbotFor?.(platform);
    const service = createTicketsService({
      db,
      events,
      queue: platform.jobs,
      port: messaging,
      jobs,
      ...(chatbot ? { chatbot } : {}),
    });
    const bulk = createTicketsBulk({ db, events, port: messaging });
    registerTicketsRealtime({ db, events, realtime: platform.realtime });
    const routes = ticketsRoutes({
      service,
      bulk,
      list: createTicketList({ db }),
      create: createTicketCreation({ db, events }),
      panel: createTicketPanel({ db }),
    });
    const preview = autoClosePreviewRoutes({ db });
    return {
      plugin: async (app) => {
        await app.register(routes);
        await app.register(preview);
      },
      jobs: [jobs.closeAfterFarewell, createAutoCloseJob({ db, events, port: messaging })] as never[],
    };
  };
}
export {
  findOrCreateActiveTicket,
  findOrCreateActiveTickets,
  ticketTouch,
  ticketTouchMany,
  touchTicketOnOutbound,
} from './tickets.inbound.js';
export type { ActiveTicketRequest } from './tickets.inbound.js';

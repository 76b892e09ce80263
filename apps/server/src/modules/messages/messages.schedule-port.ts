/**
 * `POST /messages/{ticketId}` with a `scheduleDate` (client-contract §5.2: "then the message is stored as scheduled,
 * status 'pending'"), JSON and multipart alike. The schedules module owns scheduled messages and their rules; it
 * implements this port (schedules/index.ts) and the registry wires it in, so messages never imports schedules.
 */
import { z } from 'zod';
import { scheduleDateInputSchema, sendMessageSchema, type ScheduledMessageDto } from '@conversa/shared';
import type { AuthedContext } from '../../platform/http/auth.js';

export interface TicketScheduleInput {
  body: string;
  /** `yyyy-MM-dd HH:mm` on the company's wall clock, or an ISO instant. */
  scheduleDate: string;
  idFront: string | null;
}

export interface ScheduledFile {
  key: string;
  name: string;
  mime: string;
  size: number;
}

export interface MessageSchedulingPort {
  /**
   * Stores a scheduled message to the ticket's contact on the ticket's channel, under the schedules module's rules
   * (date in the future, POST /tickets' rules for the author). A stored `file` is removed again when refused.
   */
  scheduleOnTicket(
    ctx: AuthedContext,
    ticketId: number,
    input: TicketScheduleInput,
    file?: ScheduledFile,
  ): Promise<ScheduledMessageDto>;
}

/** What clients send for "not scheduled": absent, null, empty, or the strings their form libraries make of null. */
const NOT_SCHEDULED = new Set(['', 'null', 'undefined']);

/** The `scheduleDate` of a send, or null when the send is not scheduled. */
export function scheduleDateOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return NOT_SCHEDULED.has(text) ? null : text;
}

/** The JSON body of a scheduled send: the send's fields, with a date. */
export const scheduledSendSchema = sendMessageSchema.extend({ scheduleDate: scheduleDateInputSchema });

/** The multipart field as a scheduled upload reads it (an unscheduled upload keeps only the empty forms). */
export const uploadScheduleDateSchema = z.string().max(40).optional();

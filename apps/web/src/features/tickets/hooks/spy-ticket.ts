/**
 * "Espiar pendentes" (setting `spyticket`, issue 23 item 4): with it off, the server withholds the conversation of a
 * pending ticket not accepted by the viewer (403 ERR_NO_PERMISSION on GET /messages) from agents and from
 * supervisors acting as users; the chat then shows an accept prompt instead. `spyBlocked` is what the web knows
 * beforehand (the settings list and the viewer's profile; a supervisor's `supervisorAdmin` flag is the server's to
 * apply, and its refusal shows the same prompt), so the messages are not even asked for.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ENABLED, settingDtoSchema, type TicketDto } from '@conversa/shared';
import { api, ApiError } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export function spyBlocked(
  ticket: Pick<TicketDto, 'status' | 'userId'> | undefined,
  meId: number,
  profile: string | undefined,
  spyticket: string | undefined,
): boolean {
  if (!ticket || ticket.status !== 'pending' || ticket.userId === meId) return false;
  return profile === 'user' && spyticket !== ENABLED;
}

/** The server refused the conversation of a pending ticket (the same rule, known only there). */
export const refusedAsPending = (error: unknown, ticket: Pick<TicketDto, 'status'> | undefined): boolean =>
  ticket?.status === 'pending' && error instanceof ApiError && error.code === 'ERR_NO_PERMISSION';

/** The tenant's `spyticket` from the cached settings list (undefined while it loads). */
export function useSpyticketSetting(): string | undefined {
  const settings = useQuery({
    queryKey: queryKeys.settings,
    queryFn: async () => z.array(settingDtoSchema).parse(await api.get('/settings/', { background: true })),
    staleTime: 60_000,
  });
  return settings.data?.find((setting) => setting.key === 'spyticket')?.value;
}

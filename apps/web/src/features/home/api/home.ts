import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { chatPrivadoUserSchema } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import type { OnlineTeamResponse } from '../../../lib/realtime-sync';

const onlineTeamSchema = z.object({ users: z.array(chatPrivadoUserSchema) });

/** GET /users/chat-privado/: the team with presence; kept live by realtime-sync (user-online, updateStatusUser). */
export const useOnlineTeam = () =>
  useQuery({
    queryKey: queryKeys.onlineTeam,
    queryFn: async (): Promise<OnlineTeamResponse> =>
      onlineTeamSchema.parse(await api.get('/users/chat-privado/', { background: true })),
  });

/** GET /users/ first page: its `count` is the number of users of the company. */
export const useUsersCount = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.usersCount,
    enabled,
    queryFn: async () =>
      z.object({ count: z.number() }).parse(await api.get('/users/', { query: { pageNumber: 1 }, background: true }))
        .count,
  });

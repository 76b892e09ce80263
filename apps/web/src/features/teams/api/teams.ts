/**
 * The teams screen's calls (client-contract §16 `/group-message`): bare arrays; a team's name is `group` on the wire;
 * `GET /group-message/{id}` lists the members.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  teamDtoSchema,
  teamMemberSchema,
  userListResponseSchema,
  type TeamDto,
  type TeamInput,
  type TeamMember,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export const teamsKey = ['teams'] as const;
export const teamMembersKey = (id: number) => ['teams', 'members', id] as const;

/** GET /group-message/. */
export const useTeamList = () =>
  useQuery({
    queryKey: teamsKey,
    queryFn: async () => z.array(teamDtoSchema).parse(await api.get('/group-message/', { background: true })),
  });

/** GET /group-message/{id} -> the members. */
export const useTeamMembers = (id: number) =>
  useQuery({
    queryKey: teamMembersKey(id),
    queryFn: async () => z.array(teamMemberSchema).parse(await api.get(`/group-message/${id}`, { background: true })),
  });

/** Every user of the tenant, for the member picker (the query other user pickers share). */
export const useUserOptions = () =>
  useQuery({
    queryKey: queryKeys.usersOptions,
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { rowsPerPage: 200 }, background: true })).users,
    staleTime: 60_000,
  });

/** POST /group-message/ or PUT /group-message/{id}. */
export function useSaveTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: TeamInput }): Promise<TeamDto> =>
      teamDtoSchema.parse(
        id === undefined ? await api.post('/group-message/', input) : await api.put(`/group-message/${id}`, input),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: teamsKey }),
    meta: { handlesErrors: true },
  });
}

/** DELETE /group-message/{id}. */
export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/group-message/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: teamsKey }),
  });
}

/** POST /group-message/user { userId, groupId } (idempotent) -> the members. */
export function useAddTeamMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ teamId, userId }: { teamId: number; userId: number }): Promise<TeamMember[]> =>
      z.array(teamMemberSchema).parse(await api.post('/group-message/user', { userId, groupId: teamId })),
    onSuccess: (members, { teamId }) => {
      queryClient.setQueryData(teamMembersKey(teamId), members);
      void queryClient.invalidateQueries({ queryKey: teamsKey, exact: true });
    },
  });
}

/** DELETE /group-message/user/{userId}/{groupId}. */
export function useRemoveTeamMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, userId }: { teamId: number; userId: number }) =>
      api.delete<void>(`/group-message/user/${userId}/${teamId}`),
    onSuccess: (_data, { teamId, userId }) => {
      queryClient.setQueryData<TeamMember[]>(teamMembersKey(teamId), (members) =>
        members?.filter((member) => member.id !== userId),
      );
      void queryClient.invalidateQueries({ queryKey: teamsKey, exact: true });
    },
  });
}

/**
 * What the advanced filter and the new-ticket modal choose from (client-contract §6-§8): queues, channels, tags,
 * kanban lanes, users and contacts. Bare arrays on the wire; queue names are `queue`, tag names `tag`.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { channelDtoSchema, contactListResponseSchema, userListResponseSchema } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

const queueSchema = z.object({ id: z.number(), queue: z.string(), isActive: z.boolean().optional() });
const tagSchema = z.object({ id: z.number(), tag: z.string(), color: z.string(), isActive: z.boolean().optional() });
const laneSchema = z.object({ id: z.number(), name: z.string(), position: z.number().optional() });
export type QueueOption = z.infer<typeof queueSchema>;

const OPTIONS_STALE_MS = 60_000;

/** GET /queue/ -> [{ id, queue, isActive }]. */
export const useQueues = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.queues,
    queryFn: async () => z.array(queueSchema).parse(await api.get('/queue/', { background: true })),
    enabled,
    staleTime: OPTIONS_STALE_MS,
  });

/** GET /whatsapp/ -> channels (client-contract §20.5). */
export const useChannels = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.channels,
    queryFn: async () => z.array(channelDtoSchema).parse(await api.get('/whatsapp/', { background: true })),
    enabled,
    staleTime: OPTIONS_STALE_MS,
  });

/** GET /tags/?isActive=true -> [{ id, tag, color, isActive }]. */
export const useTags = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.tags,
    queryFn: async () =>
      z.array(tagSchema).parse(await api.get('/tags/', { query: { isActive: true }, background: true })),
    enabled,
    staleTime: OPTIONS_STALE_MS,
  });

/** GET /kanban/ -> { kanban: [{ id, name, position }] }. */
export const useKanbans = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.kanbans,
    queryFn: async () =>
      z.object({ kanban: z.array(laneSchema) }).parse(await api.get('/kanban/', { background: true })).kanban,
    enabled,
    staleTime: OPTIONS_STALE_MS,
  });

/** Users for the assignee filter (admin and super only): GET /users/?rowsPerPage=200, shared with other pickers. */
export const useUsersOptions = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.usersOptions,
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { rowsPerPage: 200 }, background: true })).users,
    enabled,
    staleTime: OPTIONS_STALE_MS,
  });

export const CONTACT_SEARCH_MIN = 2;
const CONTACT_SEARCH_ROWS = 20;

/** GET /contacts/?searchParam= from 2 letters (product-spec §5: the contact search needs at least 2 letters). */
export const useContactSearch = (term: string) =>
  useQuery({
    queryKey: queryKeys.contactsList(term, 1, CONTACT_SEARCH_ROWS),
    queryFn: async ({ signal }) =>
      contactListResponseSchema.parse(
        await api.get('/contacts/', {
          query: { searchParam: term, pageNumber: 1, rowsPerPage: CONTACT_SEARCH_ROWS },
          signal,
          background: true,
        }),
      ),
    // The same key and shape as the contacts screen's page, so realtime contact patches reach it too.
    select: (response) => response.contacts,
    enabled: term.length >= CONTACT_SEARCH_MIN,
    placeholderData: keepPreviousData,
  });

/** Query keys shared by the features and by realtime-sync.ts, so socket events can update the right cache entries. */
export const queryKeys = {
  currentTenant: ['tenants', 'current'] as const,
  tenants: ['tenants', 'list'] as const,
  usersAll: ['users'] as const,
  usersLists: ['users', 'list'] as const,
  usersList: (searchParam: string, pageNumber: number) => ['users', 'list', { searchParam, pageNumber }] as const,
  usersCount: ['users', 'count'] as const,
  onlineTeam: ['users', 'online-team'] as const,
  user: (id: number) => ['users', 'detail', id] as const,
  settings: ['settings'] as const,
  plans: ['plans'] as const,
  captcha: ['auth', 'captcha'] as const,
};

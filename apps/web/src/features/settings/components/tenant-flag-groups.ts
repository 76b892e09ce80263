import type { TenantFlagKey } from '@conversa/shared';
import { isShownFlag } from './hidden-settings';

type FlagGroup = { id: 'visibility' | 'service' | 'integrations'; keys: TenantFlagKey[] };

/** How the settings screen groups the tenant toggles (client-contract §10); limits are numbers. */
const ALL_TENANT_FLAG_GROUPS: FlagGroup[] = [
  { id: 'visibility', keys: ['nullTickets', 'supervisorAdmin', 'showGroupsForAll', 'showClosedForAll', 'showChatBot'] },
  {
    id: 'service',
    keys: [
      'forceAdmin',
      'forcePendingUser',
      'groupTickets',
      'fixConnections',
      'updateNames',
      'serviceTransfer',
      'ignoreIgStories',
      'maxRetries',
      // privateMessageLimit (the internal chat's page size) stays off the screen until there is an internal chat.
      'ticketLimit',
    ],
  },
  {
    id: 'integrations',
    keys: [
      'walletExternalInteraction',
      'waitProcessExternalInteraction',
      'forceOpenChatWindow',
      'noRedis',
      'baileysMediaPersist',
      'audioPlugin',
      'audioModule',
    ],
  },
];

/** The groups as shown: toggles nothing reads yet left out (hidden-settings.ts), and groups left empty with them. */
export const TENANT_FLAG_GROUPS: FlagGroup[] = ALL_TENANT_FLAG_GROUPS.map((group) => ({
  ...group,
  keys: group.keys.filter(isShownFlag),
})).filter((group) => group.keys.length > 0);

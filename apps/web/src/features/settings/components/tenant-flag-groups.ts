import type { TenantFlagKey } from '@conversa/shared';

/** How the settings screen groups the tenant toggles (client-contract §10); limits are numbers. */
export const TENANT_FLAG_GROUPS: { id: 'visibility' | 'service' | 'integrations'; keys: TenantFlagKey[] }[] = [
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

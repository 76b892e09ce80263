/** Rows to the wire shapes of packages/shared; the password hash and token version never leave here. */
import { userConfigsSchema, type TransferUserDto, type UserConfigs, type UserDto } from '@conversa/shared';
import type { ChannelRef } from './users.channels.js';
import type { QueueRef } from './users.queues.js';
import type { UserRow } from './users.repository.js';

export function toConfigs(value: unknown): UserConfigs {
  const parsed = userConfigsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : {};
}

export function toUserDto(row: UserRow, queues: QueueRef[] = [], channels: ChannelRef[] = []): UserDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    tenantId: row.tenantId,
    isOnline: row.isOnline,
    blockWavoip: row.blockWavoip,
    queues,
    whatsappAllowed: channels,
    configs: toConfigs(row.configs),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** An agent's view of a colleague: enough to transfer a ticket to them, nothing to reach them outside the product. */
export function toTransferUser(row: UserRow, queues: QueueRef[] = []): TransferUserDto {
  return { id: row.id, name: row.name, profile: row.profile, queues, isOnline: row.isOnline };
}

export function toUserTenantDto(
  row: UserRow & { tenantName: string },
): UserDto & { tenant: { id: number; name: string } } {
  return { ...toUserDto(row), tenant: { id: row.tenantId, name: row.tenantName } };
}

export function toChatUser(row: Pick<UserRow, 'id' | 'name' | 'profile' | 'isOnline'>) {
  // Last message, unread count and read flag come with the internal chat.
  return { ...row, count: 0, text: null, timestamp: null, read: null, senderId: null };
}

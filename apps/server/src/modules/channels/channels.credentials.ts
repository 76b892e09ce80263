/** The channel facts an adapter needs, read inside the caller's tenant transaction (RLS applies). */
import type { Queryable } from '../../platform/db/client.js';
import type { ChannelCredentials } from './channels.adapter.js';
import { toCredentials } from './channels.dto.js';
import { findChannelById } from './channels.repository.js';

export async function loadChannelCredentials(tx: Queryable, channelId: number): Promise<ChannelCredentials | null> {
  const row = await findChannelById(tx, channelId);
  return row ? toCredentials(row) : null;
}

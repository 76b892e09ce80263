/**
 * The ids a flow graph names (queues, users, other flows) must be the tenant's: checked at every save (create, edit,
 * import, duplicate), in the saving transaction, before anything is stored. A graph naming another tenant's queue or
 * user (or an id that does not exist) answers 400 ERR_VALIDATION (`field: flow`), naming nothing of what exists
 * elsewhere. The graph has no channel id (channels point at flows, not the other way round).
 *
 * Where ids live (shared chat-flows.ts): a condition's or an action's `queueId`, `userIdDestination` and
 * `chatFlowId` (checked whatever its `action`, since it is stored), and the configurations' destinations
 * (`notResponseMessage`, `maxRetryBotMessage`, `outOpenHours`, `firstInteraction`: `destiny` is a queue when `type`
 * is 1, a user when 2).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { CHAT_FLOW_DESTINY_TYPES, type ChatFlowGraph } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { queues } from '../queues/queues.tables.js';
import { users } from '../users/users.tables.js';
import { chatFlows } from './chatbot.tables.js';

export interface FlowReferences {
  queues: Set<number>;
  users: Set<number>;
  flows: Set<number>;
}

const DESTINATIONS = ['notResponseMessage', 'maxRetryBotMessage', 'outOpenHours', 'firstInteraction'] as const;

type Ref = number | null | undefined;

/** Every queue, user and flow id the graph names. */
export function flowReferences(flow: ChatFlowGraph): FlowReferences {
  const refs: FlowReferences = { queues: new Set(), users: new Set(), flows: new Set() };
  const add = (set: Set<number>, value: Ref) => {
    if (typeof value === 'number') set.add(value);
  };
  const addTargets = (item: { queueId?: Ref; userIdDestination?: Ref; chatFlowId?: Ref }) => {
    add(refs.queues, item.queueId);
    add(refs.users, item.userIdDestination);
    add(refs.flows, item.chatFlowId);
  };
  for (const node of flow.nodeList) {
    if (node.type === 'node') {
      for (const condition of node.conditions) addTargets(condition);
      for (const action of node.actions) addTargets(action);
    } else if (node.type === 'configurations') {
      for (const key of DESTINATIONS) {
        const destination = node.configurations[key];
        if (!destination) continue;
        const set = destination.type === CHAT_FLOW_DESTINY_TYPES.queue ? refs.queues : refs.users;
        add(set, destination.destiny);
      }
    }
  }
  return refs;
}

async function allFound(
  tx: Queryable,
  ids: Set<number>,
  read: (list: number[]) => Promise<{ id: number }[]>,
): Promise<boolean> {
  if (ids.size === 0) return true;
  const found = new Set((await read([...ids])).map((row) => row.id));
  return [...ids].every((id) => found.has(id));
}

/** Refuses (400 ERR_VALIDATION, field `flow`) a graph naming a queue, user or flow that is not the tenant's. */
export async function assertTenantReferences(tx: Queryable, tenantId: TenantId, flow: ChatFlowGraph): Promise<void> {
  const refs = flowReferences(flow);
  const ok =
    (await allFound(tx, refs.queues, (ids) =>
      tx
        .select({ id: queues.id })
        .from(queues)
        .where(and(eq(queues.tenantId, tenantId), inArray(queues.id, ids))),
    )) &&
    (await allFound(tx, refs.users, (ids) =>
      tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), inArray(users.id, ids))),
    )) &&
    (await allFound(tx, refs.flows, (ids) =>
      tx
        .select({ id: chatFlows.id })
        .from(chatFlows)
        .where(and(eq(chatFlows.tenantId, tenantId), inArray(chatFlows.id, ids))),
    ));
  if (!ok) throw fail('ERR_VALIDATION', 'flow');
}

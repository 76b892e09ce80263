/**
 * The job queue: pg-boss on the application database (PGlite through an executor, or PostgreSQL), so a job is
 * enqueued in the same transaction as the write that causes it. Jobs are typed definitions; cron schedules are
 * stored by pg-boss and fire once across all processes.
 */
import PgBoss from 'pg-boss';
import type { ZodType } from 'zod';
import type { Logger } from 'pino';
import type { DatabaseHandle, Tx } from '../db/client.js';
import { APP_ROLE } from '../db/tenancy.js';
import { statementName } from '../db/statements.js';

/** What enqueueing needs: a job's name, payload schema and retry policy (the handler may live elsewhere). */
export interface JobSpec<P = unknown> {
  name: string;
  schema: ZodType<P>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /**
   * How long a fetched job may stay active before pg-boss fails it (and retries it). This is how the jobs of a
   * process that died (kill -9, lost host) come back: pg-boss's default, 15 minutes, would hold an agent's message
   * that long. It must cover a whole fetched batch, which a worker runs one job after another.
   */
  expireInSeconds?: number;
}

/** How often pg-boss's maintenance (expiry of jobs of dead workers, archiving) runs, across all nodes. */
export const JOB_MAINTENANCE_INTERVAL_SECONDS = 30;

export interface JobDefinition<P = unknown> extends JobSpec<P> {
  handler: (payload: P) => Promise<void>;
  /** Cron expression (UTC): the job is scheduled with an empty payload. */
  cron?: string;
  /** Jobs a worker fetches at once and runs one after another (in fetch order: sends of a ticket stay in order). */
  batchSize?: number;
  /** How long an idle worker waits before it looks for jobs again; a worker whose batch was full looks at once. */
  pollingIntervalSeconds?: number;
}

export const defineJob = <P>(definition: JobDefinition<P>): JobDefinition<P> => definition;

export interface EnqueueOptions {
  /** The transaction the job belongs to: it is only visible to workers once that transaction commits. */
  tx?: Tx;
  startAfterSeconds?: number;
  singletonKey?: string;
  /** Higher is fetched first; jobs enqueued in one transaction share a creation time, so this orders them. */
  priority?: number;
  /**
   * A queue other than the definition's own (a dynamic queue made with `ensureQueue`, such as a channel session's):
   * the definition still gives the payload schema and the retry policy.
   */
  queue?: string;
}

/** Runs one job of a dynamic queue; what it resolves is kept as the job's output (`jobState`). */
export type QueueHandler = (data: unknown) => Promise<unknown>;

export interface JobState {
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  output: unknown;
}

export interface JobQueue {
  /** Resolves the job's id (null when a singleton key already held one). */
  enqueue<P>(definition: JobSpec<P>, payload: P, options?: EnqueueOptions): Promise<string | null>;
  /** Several jobs of one definition in one insert (a batch of ingested messages' media downloads). */
  enqueueMany<P>(definition: JobSpec<P>, payloads: P[], options?: Pick<EnqueueOptions, 'tx'>): Promise<void>;
  /** Creates the queues and, when `work` is true, starts the workers and the cron schedules. */
  start(definitions: JobDefinition<never>[], work: boolean): Promise<void>;
  /** Fetches and runs the queued jobs of one definition now (tests and one-off maintenance); returns how many ran. */
  runPending<P>(definition: JobDefinition<P>): Promise<number>;
  stop(): Promise<void>;
  /** Creates a queue made at run time (idempotent); a job can only be enqueued into a queue that exists. */
  ensureQueue(name: string): Promise<void>;
  /** Starts working a dynamic queue on this process with the given handler (once per name; again after offWork). */
  workQueue(name: string, handler: QueueHandler, options?: { batchSize?: number }): Promise<void>;
  /** Stops this process's worker of a dynamic queue; its jobs stay queued for whoever works it next. */
  offWork(name: string): Promise<void>;
  /** A job's state and output, or null when it is unknown (archived or never made). */
  jobState(queue: string, id: string): Promise<JobState | null>;
  /** Cancels a job that has not run yet (one whose requester stopped waiting). */
  cancel(queue: string, id: string): Promise<void>;
}

/**
 * Runs a $n-parameterised statement of pg-boss on a drizzle transaction, as a named prepared statement: pg-boss
 * sends fixed text (its job insert), so PostgreSQL parses it once per connection instead of at every enqueue.
 */
function executeOnTx(tx: Tx, text: string, values: unknown[] = []) {
  const query = { sql: text, params: values.map((value) => value ?? null) };
  // Named by its text: a transaction may run several of pg-boss's statements (a send, an insert of many), and a
  // connection refuses one name for two texts (drizzle's own transactions do not hash names as NamingSession does).
  const name = statementName('pgboss', text);
  return tx._.session.prepareQuery(query, undefined, name, false).execute() as Promise<{ rows: unknown[] }>;
}

/**
 * A fetched batch in the order pg-boss chose it (priority, then creation): its fetch statement picks the jobs in that
 * order but returns them in any order (an UPDATE's RETURNING), which scrambled messages queued in one transaction
 * (a chat flow's welcome and menu reached the customer in reverse).
 */
function inFetchOrder<T extends { priority: number; createdOn: Date; id: string }>(jobs: T[]): T[] {
  return [...jobs].sort(
    (a, b) =>
      b.priority - a.priority ||
      a.createdOn.getTime() - b.createdOn.getTime() ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

export function createJobQueue(handle: DatabaseHandle, logger: Logger): JobQueue {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => handle.executeSql(text, values) },
    schema: 'pgboss',
    supervise: true,
    schedule: true,
    migrate: true,
    maintenanceIntervalSeconds: JOB_MAINTENANCE_INTERVAL_SECONDS,
  });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  let started = false;
  /** Dynamic queues this process works now. */
  const working = new Set<string>();

  async function startWorker(name: string, handler: QueueHandler, batchSize: number, pollingIntervalSeconds: number) {
    // Set once work() answers: a batch that ends before that waits for the polling interval, as before.
    const worker: { id?: string } = {};
    const options = { batchSize, pollingIntervalSeconds, includeMetadata: true as const };
    worker.id = await boss.work(name, options, async (jobs) => {
      // Each job succeeds or fails on its own: a failure is recorded for its id (and retried with backoff) without
      // failing the others of the batch. pg-boss completes the batch's remaining active jobs when this returns; a
      // job whose handler answered something is completed at once with it as its output (someone awaits it).
      for (const job of inFetchOrder(jobs)) {
        try {
          const output = await handler(job.data ?? {});
          if (output !== undefined) await boss.complete(name, job.id, { value: output });
        } catch (error) {
          logger.warn({ err: error, job: name, id: job.id }, 'job failed');
          await boss.fail(name, job.id, { message: (error as Error).message });
        }
      }
      // A full batch means more may be waiting: fetch again now instead of after the polling interval, which
      // would cap a worker at one batch per interval (two media downloads a second).
      if (jobs.length >= batchSize && worker.id) boss.notifyWorker(worker.id);
    });
  }

  return {
    async enqueue(definition, payload, options = {}) {
      const data = definition.schema.parse(payload) as object;
      const sendOptions: PgBoss.SendOptions & { db?: PgBoss.Db } = {
        retryLimit: definition.retryLimit ?? 5,
        retryDelay: definition.retryDelaySeconds ?? 10,
        retryBackoff: true,
      };
      if (definition.expireInSeconds) sendOptions.expireInSeconds = definition.expireInSeconds;
      // As a date (pg-boss sends it as an ISO timestamp): the same on the pool and inside a transaction.
      if (options.startAfterSeconds) sendOptions.startAfter = new Date(Date.now() + options.startAfterSeconds * 1000);
      if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
      if (options.priority) sendOptions.priority = options.priority;
      const tx = options.tx;
      if (tx) sendOptions.db = { executeSql: (text, values) => executeOnTx(tx, text, values) };
      return boss.send(options.queue ?? definition.name, data, sendOptions);
    },
    async enqueueMany(definition, payloads, options = {}) {
      if (payloads.length === 0) return;
      const jobs = payloads.map((payload) => ({
        name: definition.name,
        data: definition.schema.parse(payload) as object,
        retryLimit: definition.retryLimit ?? 5,
        retryDelay: definition.retryDelaySeconds ?? 10,
        retryBackoff: true,
        ...(definition.expireInSeconds ? { expireInSeconds: definition.expireInSeconds } : {}),
      }));
      const tx = options.tx;
      await boss.insert(jobs, tx ? { db: { executeSql: (text, values) => executeOnTx(tx, text, values) } } : {});
    },
    async start(definitions, work) {
      await boss.start();
      started = true;
      // Jobs are enqueued inside tenant transactions, which run as the non-owner role.
      await handle.executeSql(
        `GRANT USAGE ON SCHEMA pgboss TO ${APP_ROLE};
         GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO ${APP_ROLE};`,
      );
      for (const definition of definitions) {
        await boss.createQueue(definition.name);
        if (!work) continue;
        await startWorker(
          definition.name,
          async (data) => definition.handler(definition.schema.parse(data) as never),
          definition.batchSize ?? 5,
          definition.pollingIntervalSeconds ?? 1,
        );
        if (definition.cron) await boss.schedule(definition.name, definition.cron, {}, { tz: 'UTC' });
      }
    },
    async runPending(definition) {
      let ran = 0;
      for (;;) {
        const jobs = await boss.fetch<object>(definition.name, { batchSize: 50, includeMetadata: true });
        if (!jobs || jobs.length === 0) return ran;
        for (const job of inFetchOrder(jobs)) {
          try {
            await definition.handler(definition.schema.parse(job.data ?? {}));
            await boss.complete(definition.name, job.id);
          } catch (error) {
            await boss.fail(definition.name, job.id, { message: (error as Error).message });
            throw error;
          }
          ran += 1;
        }
      }
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, close: false, timeout: 5000 });
      started = false;
      working.clear();
    },
    async ensureQueue(name) {
      await boss.createQueue(name);
    },
    async workQueue(name, handler, options = {}) {
      if (working.has(name)) return;
      working.add(name);
      try {
        await startWorker(name, handler, options.batchSize ?? 5, 1);
      } catch (error) {
        working.delete(name);
        throw error;
      }
    },
    async offWork(name) {
      if (!working.delete(name)) return;
      await boss.offWork(name);
    },
    async jobState(queue, id) {
      const job = await boss.getJobById(queue, id);
      if (!job) return null;
      const output = job.output as { value?: unknown } | null;
      return { state: job.state, output: job.state === 'completed' ? (output?.value ?? null) : output };
    },
    async cancel(queue, id) {
      await boss.cancel(queue, id);
    },
  };
}

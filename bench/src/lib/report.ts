/** The results table on stdout and one JSON file per scenario under bench/results/. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from './server.js';

export interface Row {
  scenario: string;
  rate: string;
  p50: string;
  p99: string;
  rss: string;
  notes: string;
}

export function machineFacts(database: string) {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    database,
  };
}

/**
 * What one PostgreSQL round trip costs on this machine: a prepared `select 1` in a loop on one connection, wall time
 * and this process's CPU per query. The server's requests are chains of such round trips, so this is the gauge for
 * comparing runs on different machines (one VM measured 52 µs of CPU per query, another 190 µs).
 */
export async function roundTripCost(databaseUrl: string): Promise<{ wallUs: number; cpuUs: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const query = { text: 'select 1', name: 'bench_round_trip' };
    for (let i = 0; i < 300; i += 1) await client.query(query);
    const n = 3000;
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < n; i += 1) await client.query(query);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { wallUs: Math.round((wall * 1000) / n), cpuUs: Math.round((used.user + used.system) / n) };
  } finally {
    await client.end();
  }
}

/** The machine's CPU over an interval, from /proc/stat (Linux): how busy it was and how much the hypervisor took. */
export interface CpuLoad {
  busyPct: number;
  stealPct: number;
}

function cpuTicks(): number[] | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    return line.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return null;
  }
}

/** Starts measuring; `stop()` answers the load since (null where /proc/stat does not exist). */
export function measureCpuLoad(): { stop(): CpuLoad | null } {
  const start = cpuTicks();
  return {
    stop() {
      const end = cpuTicks();
      if (!start || !end) return null;
      const delta = end.map((value, i) => value - (start[i] ?? 0));
      // user nice system idle iowait irq softirq steal
      const total = delta.slice(0, 8).reduce((a, b) => a + b, 0) || 1;
      const idle = (delta[3] ?? 0) + (delta[4] ?? 0);
      const pct = (n: number) => Math.round((n / total) * 1000) / 10;
      return { busyPct: pct(total - idle), stealPct: pct(delta[7] ?? 0) };
    },
  };
}

export function writeResult(db: string, scenario: string, payload: object): string {
  const dir = path.join(REPO_ROOT, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().slice(0, 10)}-${db}-${scenario}.json`);
  fs.writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return path.relative(REPO_ROOT, file);
}

export function printTable(title: string, rows: Row[]): void {
  const headers: Row = {
    scenario: 'scenario',
    rate: 'rate',
    p50: 'p50 ms',
    p99: 'p99 ms',
    rss: 'RSS MB',
    notes: 'notes',
  };
  const keys = Object.keys(headers) as (keyof Row)[];
  const widths = keys.map((k) => Math.max(...[headers, ...rows].map((r) => r[k].length)));
  const line = (r: Row) => `| ${keys.map((k, i) => r[k].padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${title}\n${line(headers)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

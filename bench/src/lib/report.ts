/** The results table on stdout and one JSON file per scenario under bench/results/. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

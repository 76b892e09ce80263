/**
 * Source files stay short enough to read top to bottom (ARCHITECTURE.md §1): a non-test source file over MAX_LINES
 * fails `npm run deps` unless its opening comment says why it stays long, in a line starting with "Long file:".
 * Tests, simulators' fixtures and generated files are not counted (tests read as a list of cases).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 400;
const ROOTS = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test' && entry.name !== 'node_modules') yield* sourceFiles(full);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

const offenders = [];
for (const dir of ROOTS) {
  for (const file of sourceFiles(path.join(root, dir))) {
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines <= MAX_LINES) continue;
    const opening = text.slice(0, text.indexOf('*/') + 2);
    if (!/^\s*\*?\s*Long file:/m.test(opening)) offenders.push(`${path.relative(root, file)} (${lines} lines)`);
  }
}
if (offenders.length > 0) {
  console.error(`Over ${MAX_LINES} lines without a "Long file:" reason in the opening comment:`);
  for (const offender of offenders) console.error(`  ${offender}`);
  process.exit(1);
}
console.log(`long files: none over ${MAX_LINES} lines without a reason`);

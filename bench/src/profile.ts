/** `tsx bench/src/profile.ts <file.cpuprofile>`: the top functions by self time of a V8 CPU profile. */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const profile = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
const byPackage = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/apps\/server\/dist\//, 'server/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const pkg = url.includes('node_modules/')
    ? url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')
    : url.includes('/apps/server/dist/')
      ? 'server'
      : url.startsWith('node:')
        ? 'node'
        : functionName.startsWith('(')
          ? functionName
          : 'other';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + dt);
});
const show = (title: string, map: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
};
show('self time by package', byPackage, 15);
show('self time by function', self, 25);

import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The two specs that drive WhatsApp sessions (QR, history imports) run first. whatsapp-qr failed (the new Baileys
 * session's QR code never reached the page) whenever it ran late in a full run; it was blamed on admin-screens'
 * history import ending by its 3-minute quiet time, but a run of admin-screens, 200 s idle, then whatsapp-qr passes,
 * so the cause is still unknown (an open defect, in the session notes). The others keep vitest's order.
 */
const FIRST = ['whatsapp-qr.e2e.ts', 'admin-screens.e2e.ts'];
class SessionsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = FIRST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? FIRST.length : index;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

// One real server (started by the global setup) and one chromium per spec file; files run one after another.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['specs/**/*.e2e.ts', 'specs/**/*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
    sequence: { sequencer: SessionsFirst },
  },
});

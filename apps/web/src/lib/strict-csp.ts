/**
 * The server's CSP has no 'unsafe-eval'. zod probes `new Function` once to decide whether to compile its object
 * parsers; the probe is caught, but the browser still reports a CSP violation. jitless skips the probe (the
 * interpreted parsers are fast enough for form and API payloads). Imported first by main.tsx.
 */
import { z } from 'zod';

z.config({ jitless: true });

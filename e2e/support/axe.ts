/**
 * Accessibility check of the screen a spec is on: axe-core's own build (`axe.min.js`) injected into the page and run
 * there, failing on any `serious` or `critical` violation with its rule id, help text and the offending selectors.
 * Lesser impacts (moderate, minor) are left to review, not to the suite.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/** axe.min.js beside axe-core's entry point (resolved, not assumed under node_modules/). */
function loadAxeSource(): string {
  axeSource ??= fs.readFileSync(path.join(path.dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8');
  return axeSource;
}

export const FAILING_IMPACTS = ['serious', 'critical'] as const;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
  /** Per node: its start tag and axe's reason (for color-contrast: the ratio and both colours). */
  details: string[];
}

export interface AxeOptions {
  /** Limit the check to part of the page (a CSS selector), e.g. an open modal. */
  include?: string;
  /** Rule ids to skip, each with a reason in the calling spec. */
  disableRules?: string[];
}

/**
 * Waits (up to 3 s) until no toast is mid-transition: a toast fading in or out is half transparent, and axe would
 * report its text's contrast against whatever shows through. Toasts come from server events too (an import of
 * another spec that finishes on the shared server), so any audit may meet one.
 */
async function waitForSettledToasts(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const container = document.querySelector('.mantine-Notifications-root');
        if (!container) return true;
        // Each toast and the transition wrappers between it and the container must be fully opaque.
        return Array.from(container.querySelectorAll('.mantine-Notification-root')).every((toast) => {
          for (let element: Element | null = toast; element && element !== container; element = element.parentElement) {
            if (getComputedStyle(element).opacity !== '1') return false;
          }
          return true;
        });
      },
      undefined,
      { polling: 100, timeout: 3000 },
    )
    .catch(() => undefined);
}

/** Runs axe on the current document and returns the serious and critical violations. */
export async function findAxeViolations(page: Page, options: AxeOptions = {}): Promise<AxeViolation[]> {
  await waitForSettledToasts(page);
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated through the debugging protocol, not as a <script> tag: the app's CSP (script-src 'self') refuses inline
  // scripts, and the check must not loosen the policy it runs under.
  if (!hasAxe) await page.evaluate(loadAxeSource());
  const results = await page.evaluate(
    async ({ include, disableRules }) => {
      const axe = (window as unknown as { axe: AxeGlobal }).axe;
      // A toast may start fading after the wait above: every running transition jumps to its end first, so axe reads
      // final colours (a half-faded text's contrast is the page behind it). Endless ones (loaders) cannot finish.
      for (const animation of document.getAnimations()) {
        try {
          animation.finish();
        } catch {
          // an infinite animation
        }
      }
      const rules = Object.fromEntries((disableRules ?? []).map((id) => [id, { enabled: false }]));
      const found = await axe.run(include ? { include: [[include]] } : document, {
        resultTypes: ['violations'],
        rules,
      });
      return found.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        targets: v.nodes.map((node) => node.target.join(' ')),
        details: v.nodes.map((node) => {
          const reason = (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim();
          return `${node.html.slice(0, 160)} -> ${reason.slice(0, 200)}`;
        }),
      }));
    },
    { include: options.include, disableRules: options.disableRules },
  );
  return results.filter((v) => (FAILING_IMPACTS as readonly (string | null)[]).includes(v.impact));
}

export const describeViolations = (screen: string, violations: AxeViolation[]): string =>
  [
    `${screen}: ${violations.length} serious/critical accessibility violation(s)`,
    ...violations.map(
      (v) =>
        `  ${v.id} (${v.impact}) ${v.help}\n    ${v.targets
          .slice(0, 12)
          .map((target, i) => `${target}\n      ${v.details[i] ?? ''}`)
          .join('\n    ')}`,
    ),
  ].join('\n');

/** Throws, naming each rule and its targets, when the screen has a serious or critical violation. */
export async function expectAccessible(page: Page, screen: string, options: AxeOptions = {}): Promise<void> {
  const violations = await findAxeViolations(page, options);
  if (violations.length > 0) throw new Error(describeViolations(screen, violations));
}

/** The slice of axe-core's API used here (its types describe the Node import, not the injected global). */
interface AxeGlobal {
  run(
    context: Document | { include: string[][] },
    options: { resultTypes: string[]; rules: Record<string, { enabled: boolean }> },
  ): Promise<{
    violations: {
      id: string;
      impact?: string | null;
      help: string;
      nodes: { target: string[]; html: string; failureSummary?: string }[];
    }[];
  }>;
}

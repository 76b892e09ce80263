import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { initI18n } from '../lib/i18n';

// The suites run beside builds and other suites on two cores: a screen that renders in 3 s there is slow, not wrong.
// findBy*/waitFor wait up to 10 s (the default 1 s failed suites under load); the tests' own timeouts allow for it.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks what Mantine measures with. As in browsers, the empty query matches (mantine-datatable asks it for
// columns without a media query); every other query does not.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: query.trim() === '',
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
Element.prototype.scrollIntoView ??= vi.fn();
// jsdom has no FontFaceSet; Mantine's autosize textarea listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

beforeAll(async () => {
  await initI18n('pt');
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

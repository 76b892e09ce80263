/**
 * The builder's test harness: what xyflow needs in jsdom (a ResizeObserver that reports, DOMMatrixReadOnly, element
 * sizes, SVG boxes), a fetch mock answering by "METHOD /path", and the page rendered at /chat-flow/builder?id=<id>
 * in a memory router with a stand-in list page.
 */
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { defaultChatFlow, type ChatFlowDto } from '@conversa/shared';
import { createQueryClient } from '../../../lib/query-client';
import { jsonResponse, Providers } from '../../../test/render';
import { ChatFlowBuilderPage } from './ChatFlowBuilderPage';

class ReportingResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    this.callback([{ target } as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}
class DOMMatrixReadOnlyStub {
  m22: number;
  constructor(transform?: string) {
    const scale = transform?.match(/scale\(([\d.]+)\)/)?.[1];
    this.m22 = scale !== undefined ? Number(scale) : 1;
  }
}

/** Installs the stubs (call at the top of a test file). */
export function installFlowStubs() {
  window.ResizeObserver = ReportingResizeObserver as unknown as typeof ResizeObserver;
  (globalThis as { DOMMatrixReadOnly?: unknown }).DOMMatrixReadOnly = DOMMatrixReadOnlyStub;
  Object.defineProperties(HTMLElement.prototype, {
    offsetHeight: {
      configurable: true,
      get(this: HTMLElement) {
        return Number.parseFloat(this.style.height) || 40;
      },
    },
    offsetWidth: {
      configurable: true,
      get(this: HTMLElement) {
        return Number.parseFloat(this.style.width) || 180;
      },
    },
  });
  (SVGElement.prototype as unknown as { getBBox: () => DOMRect }).getBBox = () =>
    ({ x: 0, y: 0, width: 0, height: 0 }) as DOMRect;
}

export const flowDto = (extra: Partial<ChatFlowDto> = {}): ChatFlowDto => ({
  id: 7,
  name: 'Atendimento',
  isActive: true,
  celularTeste: '5511999990000',
  userId: 1,
  flow: defaultChatFlow('Atendimento'),
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

export type Route = (body: unknown) => Response | Promise<Response>;

/** A fetch mock answering `routes["METHOD /path"]` (404 ERR_NOT_MOCKED otherwise); `calls` lists what was asked. */
export function mockApi(routes: Record<string, Route>) {
  const fetchMock = vi.fn<typeof fetch>(async (url, init) => {
    const key = `${init?.method ?? 'GET'} ${
      String(url)
        .replace(/^\/api/, '')
        .split('?')[0]
    }`;
    const route = routes[key];
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    return route ? route(body) : jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = () =>
    fetchMock.mock.calls.map(([url, init]) => ({
      key: `${init?.method ?? 'GET'} ${
        String(url)
          .replace(/^\/api/, '')
          .split('?')[0]
      }`,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
  return {
    fetchMock,
    calls,
    bodiesOf: (key: string) =>
      calls()
        .filter((c) => c.key === key)
        .map((c) => c.body),
  };
}

const user = (id: number, name: string) => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  profile: 'user',
  tenantId: 1,
  isOnline: true,
  blockWavoip: false,
  queues: [],
  whatsappAllowed: [],
  configs: {},
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

/** The usual answers: the flow, the flow list, two queues and two users. */
export function defaultRoutes(flow: ChatFlowDto = flowDto()): Record<string, Route> {
  return {
    [`GET /chat-flow/${flow.id}`]: () => jsonResponse(flow),
    'GET /chat-flow': () => jsonResponse({ chatFlow: [flow, flowDto({ id: 8, name: 'Vendas' })] }),
    'GET /queue/': () =>
      jsonResponse([
        { id: 1, queue: 'Suporte', isActive: true },
        { id: 2, queue: 'Financeiro', isActive: true },
      ]),
    'GET /users/': () =>
      jsonResponse({
        users: [user(5, 'Ana'), user(6, 'Bruno')],
        count: 2,
        hasMore: false,
      }),
  };
}

export function renderBuilder(path = '/chat-flow/builder?id=7') {
  const router = createMemoryRouter(
    [
      { path: '/chat-flow', element: <p data-testid="list-stand-in">list</p> },
      { path: '/chat-flow/builder', element: <ChatFlowBuilderPage /> },
    ],
    { initialEntries: [path] },
  );
  const utils = render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...utils, router };
}

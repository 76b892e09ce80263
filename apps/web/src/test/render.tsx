import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { i18next } from '../lib/i18n';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function Providers({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <I18nextProvider i18n={i18next}>
      <MantineProvider>
        <QueryClientProvider client={queryClient ?? createTestQueryClient()}>
          <ModalsProvider>{children}</ModalsProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}

export function renderWithProviders(ui: ReactElement, queryClient?: QueryClient) {
  return render(<Providers queryClient={queryClient}>{ui}</Providers>);
}

/** Renders routes in a memory router at `path`; returns the router to read where it went. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...utils, router };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Types `value` into the field with this test id (a change event, as the forms' tests need). */
export const typeInto = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** The JSON body of the `call`-th request made through a mocked fetch. */
export const requestBody = (fetchMock: { mock: { calls: unknown[][] } }, call: number): Record<string, unknown> =>
  JSON.parse(String((fetchMock.mock.calls[call]?.[1] as RequestInit | undefined)?.body)) as Record<string, unknown>;

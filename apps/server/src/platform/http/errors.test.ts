import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { strongPasswordSchema } from '@conversa/shared';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { fail, registerErrorHandling } from './errors.js';

async function appWithRoutes() {
  const app = Fastify({ bodyLimit: 100 });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/things',
    {
      schema: {
        body: z.object({
          name: z.string(),
          nested: z.object({ count: z.number() }),
          password: strongPasswordSchema.optional(),
        }),
      },
    },
    async () => ({ ok: true }),
  );
  typed.get('/missing', async () => {
    throw fail('ERR_NO_USER_FOUND');
  });
  // drizzle wraps a failed query: the driver's error (SQLSTATE or socket code) is its cause.
  typed.get('/db/:code', async (request) => {
    const { code } = request.params as { code: string };
    const cause =
      code === 'lost'
        ? new Error('Client has encountered a connection error and is not queryable')
        : Object.assign(new Error('driver'), { code });
    throw new DrizzleQueryError('rollback', [], cause);
  });
  typed.get('/boom', async () => {
    throw new Error('secret internals');
  });
  await app.ready();
  return app;
}

describe('error envelope', () => {
  it('names the offending field on validation failures', async () => {
    const app = await appWithRoutes();
    const res = await app.inject({ method: 'POST', url: '/things', payload: { name: 'a', nested: { count: 'x' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'nested.count' });
  });
  it('uses the code a schema refinement names', async () => {
    const app = await appWithRoutes();
    const res = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { name: 'a', nested: { count: 1 }, password: 'abcdefgh' },
    });
    expect(res.json()).toMatchObject({ error: 'ERR_WEAK_PASSWORD', field: 'password' });
  });
  it('maps AppError to its catalogue status, malformed JSON to 400, big bodies to 413 and crashes to 500', async () => {
    const app = await appWithRoutes();
    expect((await app.inject({ url: '/missing' })).json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    expect((await app.inject({ url: '/missing' })).statusCode).toBe(404);
    const bad = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
    const big = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { name: 'x'.repeat(500), nested: { count: 1 } },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const boom = await app.inject({ url: '/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ error: 'ERR_INTERNAL' });
    expect((await app.inject({ url: '/nowhere' })).json()).toEqual({ error: 'ERR_NOT_FOUND' });
  });

  it('reads the driver code inside drizzle’s wrapper: a lost database is 503, text it cannot store 400', async () => {
    const app = await appWithRoutes();
    for (const [code, status, error] of [
      ['ECONNREFUSED', 503, 'ERR_SERVICE_UNAVAILABLE'],
      ['57P01', 503, 'ERR_SERVICE_UNAVAILABLE'],
      ['lost', 503, 'ERR_SERVICE_UNAVAILABLE'],
      ['22021', 400, 'ERR_VALIDATION'],
      ['22P05', 400, 'ERR_VALIDATION'],
      ['23505', 500, 'ERR_INTERNAL'],
    ] as const) {
      const res = await app.inject({ url: `/db/${code}` });
      expect(res.statusCode, code).toBe(status);
      expect(res.json()).toEqual({ error });
    }
  });
});

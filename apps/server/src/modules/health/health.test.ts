import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { Lifecycle } from '../../platform/lifecycle/lifecycle';
import type { Db } from '../../platform/db/database';

describe('health and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps GET /api/v1/health; /health/live answers; /health/ready is 200 on a migrated database', async () => {
    const health = await t.get('/api/v1/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', database: t.database });
    expect((await t.get('/health/live')).json()).toEqual({ status: 'live' });
    const ready = await t.get('/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while the newest migration of this build is missing (a newer process migrating), ready again once it is there', async () => {
    const [newest] = await t.rows<{ id: number; hash: string; created_at: string }>(
      sql`SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
    );
    await t.rows(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${newest!.id}`);
    try {
      const res = await t.get('/health/ready');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'migrations_pending' });
      expect((await t.get('/health/live')).statusCode).toBe(200);
    } finally {
      await t.rows(
        sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`,
      );
    }
    expect((await t.get('/health/ready')).statusCode).toBe(200);
  });

  it('answers 503 draining from the moment the process drains (SIGTERM), while still alive', async () => {
    t.app.services.lifecycle.drain();
    const res = await t.get('/health/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'draining' });
    expect((await t.get('/health/live')).statusCode).toBe(200);
    expect((await t.get('/api/v1/health')).statusCode).toBe(200);
  });
});

describe('readiness without a database', () => {
  it('is database_unreachable when the database fails, or does not answer within 2 s', async () => {
    const failing = { execute: () => Promise.reject(new Error('ECONNREFUSED')) } as unknown as Db;
    expect(await new Lifecycle(failing).readiness()).toEqual({ ready: false, reason: 'database_unreachable' });
    const hanging = { execute: () => new Promise(() => {}) } as unknown as Db;
    const t0 = Date.now();
    expect(await new Lifecycle(hanging).readiness()).toEqual({ ready: false, reason: 'database_unreachable' });
    expect(Date.now() - t0).toBeLessThan(3000);
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEventName, DomainEvents, Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { therapist, type Therapist } from '../../test/workspace-fixtures';
import type { Db } from '../db/database';
import { inProcessBroker, type Broker, type BrokerMessage } from '../realtime/broker';
import { EventBus } from './event-bus';

let t: TestApp;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  db = t.app.services.database.db;
  await t.rows(sql`create table event_probe (id uuid primary key)`);
});
afterAll(() => t?.close());

const recordingLog = () => {
  const errors: string[] = [];
  return { errors, error: (_obj: object, msg: string) => void errors.push(msg) };
};
const busOn = (broker: Broker = inProcessBroker(), log = recordingLog()) => new EventBus(broker, log);
const probe = (id: string) => t.rows<{ id: string }>(sql`select id from event_probe where id = ${id}`);
const access = () => ({ workspaceId: randomUUID() });

describe('EventBus.transaction', () => {
  it('never delivers what a transaction that rolls back emitted', async () => {
    const bus = busOn();
    const seen: unknown[] = [];
    bus.on('workspace.access_changed', (p) => void seen.push(p), { scope: 'once' });
    const id = randomUUID();
    let ranAfterCommit = false;
    await expect(
      bus.transaction(db, async (tx, emit, onCommit) => {
        await tx.execute(sql`insert into event_probe (id) values (${id})`);
        emit('workspace.access_changed', access());
        onCommit(() => void (ranAfterCommit = true));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(seen).toEqual([]);
    expect(ranAfterCommit).toBe(false);
    expect(await probe(id)).toEqual([]);
  });

  it('delivers a committed event once, after the commit: its handler reads the committed row', async () => {
    const bus = busOn();
    const id = randomUUID();
    const found: number[] = [];
    // A separate query on the database (not the transaction): on PGlite it would wait for the transaction forever.
    bus.on('workspace.access_changed', async () => void found.push((await probe(id)).length), { scope: 'once' });
    const result = await bus.transaction(db, async (tx, emit) => {
      await tx.execute(sql`insert into event_probe (id) values (${id})`);
      emit('workspace.access_changed', access());
      expect(found).toEqual([]); // buffered while the transaction is open
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(found).toEqual([1]);
  });

  it('runs events and after-commit work in the order they were emitted', async () => {
    const bus = busOn();
    const order: string[] = [];
    bus.on('patient.erased', () => void order.push('erased'), { scope: 'once' });
    bus.on('workspace.access_changed', () => void order.push('access'), { scope: 'once' });
    await bus.transaction(db, async (_tx, emit, onCommit) => {
      emit('workspace.access_changed', access());
      onCommit(() => void order.push('work'));
      emit('patient.erased', { workspaceId: randomUUID(), patientId: randomUUID() });
    });
    expect(order).toEqual(['access', 'work', 'erased']);
  });

  it('refuses a transaction as its database: a savepoint is not a commit', async () => {
    const bus = busOn();
    await expect(db.transaction((tx) => bus.transaction(tx as unknown as Db, async () => 1))).rejects.toThrow(/not a transaction/);
  });
});

describe('EventBus delivery', () => {
  it('logs a throwing handler; the emitter and the other handlers carry on', async () => {
    const log = recordingLog();
    const bus = busOn(inProcessBroker(), log);
    const seen: string[] = [];
    bus.on(
      'workspace.access_changed',
      () => {
        throw new Error('boom');
      },
      { scope: 'once' },
    );
    bus.on(
      'workspace.access_changed',
      async () => {
        await Promise.reject(new Error('async boom'));
      },
      { scope: 'every-process' },
    );
    bus.on('workspace.access_changed', () => void seen.push('after'), { scope: 'once' });
    bus.on(
      'patient.erased',
      () => {
        throw new Error('after-commit boom');
      },
      { scope: 'once' },
    );

    await expect(bus.emit('workspace.access_changed', access())).resolves.toBeUndefined();
    const id = randomUUID();
    await expect(
      bus.transaction(db, async (tx, emit, onCommit) => {
        await tx.execute(sql`insert into event_probe (id) values (${id})`);
        emit('patient.erased', { workspaceId: randomUUID(), patientId: randomUUID() });
        onCommit(() => Promise.reject(new Error('disk full')));
        return id;
      }),
    ).resolves.toBe(id);
    expect(seen).toEqual(['after']);
    expect(await probe(id)).toHaveLength(1);
    expect(log.errors).toHaveLength(4);
  });

  it('stops delivering to a handler that unsubscribed', async () => {
    const bus = busOn();
    let n = 0;
    const off = bus.on('workspace.access_changed', () => void n++, { scope: 'once' });
    await bus.emit('workspace.access_changed', access());
    off();
    await bus.emit('workspace.access_changed', access());
    expect(n).toBe(1);
  });
});

describe('across two server processes sharing one broker', () => {
  const twoProcesses = async () => {
    const broker = inProcessBroker();
    const published: BrokerMessage[] = [];
    const spy: Broker = { ...broker, publish: (m) => (published.push(m), broker.publish(m)) };
    const logB = recordingLog();
    const a = busOn(spy);
    const b = busOn(broker, logB);
    await a.start();
    await b.start();
    const calls = { aEvery: 0, aOnce: 0, bEvery: 0, bOnce: 0 };
    a.on('workspace.access_changed', () => void calls.aEvery++, { scope: 'every-process' });
    a.on('workspace.access_changed', () => void calls.aOnce++, { scope: 'once' });
    b.on('workspace.access_changed', () => void calls.bEvery++, { scope: 'every-process' });
    b.on('workspace.access_changed', () => void calls.bOnce++, { scope: 'once' });
    return { broker, published, a, b, calls, logB };
  };

  it("runs 'every-process' handlers in both, once each, and 'once' handlers only in the emitter", async () => {
    const { a, b, calls } = await twoProcesses();
    await a.transaction(db, async (_tx, emit) => emit('workspace.access_changed', access()));
    await b.settled();
    expect(calls).toEqual({ aEvery: 1, aOnce: 1, bEvery: 1, bOnce: 0 });
    await b.emit('workspace.access_changed', access());
    await a.settled();
    expect(calls).toEqual({ aEvery: 2, aOnce: 1, bEvery: 2, bOnce: 1 });
  });

  it("publishes only events that have an 'every-process' handler", async () => {
    const { a, published } = await twoProcesses();
    a.on('patient.created', () => {}, { scope: 'once' });
    await a.emit('patient.created', { workspaceId: randomUUID(), patientId: randomUUID(), assignedTherapistId: null });
    await a.emit('workspace.access_changed', access());
    expect(published.map((m) => m.kind === 'event' && m.name)).toEqual(['workspace.access_changed']);
  });

  it("logs an 'every-process' handler that throws on an event from another process; the publisher and the other handlers carry on", async () => {
    const { a, b, calls, logB } = await twoProcesses();
    b.on(
      'workspace.access_changed',
      () => {
        throw new TypeError("Cannot read properties of null (reading 'event')");
      },
      { scope: 'every-process' },
    );
    b.on('workspace.access_changed', () => void calls.bEvery++, { scope: 'every-process' });
    await expect(a.emit('workspace.access_changed', access())).resolves.toBeUndefined();
    await b.settled();
    expect(calls.bEvery).toBe(2);
    expect(logB.errors).toEqual(['handler of workspace.access_changed failed (the change it follows is committed)']);
  });

  it('drops (and logs) a malformed or unknown event from another process', async () => {
    const { broker, b, calls, logB } = await twoProcesses();
    await broker.publish({ kind: 'event', name: 'workspace.access_changed', payload: { workspaceId: 'nope' }, origin: 'other' });
    await broker.publish({ kind: 'event', name: 'from.the.future', payload: {}, origin: 'other' });
    await b.settled();
    expect(calls.bEvery).toBe(0);
    expect(logB.errors).toEqual(['malformed domain event from another process']);
  });
});

describe('what the modules emit', () => {
  let owner: Therapist;
  let ws: Workspace;
  const record = <N extends DomainEventName>(name: N) => {
    const seen: DomainEvents[N][] = [];
    const off = t.app.services.events.on(name, (p) => void seen.push(p), { scope: 'once' });
    return { seen, off };
  };
  beforeAll(async () => {
    owner = await therapist(t, 'ines@eventos.test', 'Inés');
    ws = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: owner.accessToken }))[0]!;
  });

  it('patients: created, updated, assigned, erased — after commit, ids and facts only', async () => {
    const created = record('patient.created');
    const updated = record('patient.updated');
    const assigned = record('patient.assigned');
    const erased = record('patient.erased');
    const P = `/api/v1/workspaces/${ws.id}/patients`;
    const p = json<Patient>(
      await t.post(P, { firstName: 'Olga', lastName: 'Ruiz', assignedTherapistId: owner.userId }, { token: owner.accessToken }),
    );
    expect(created.seen).toEqual([{ workspaceId: ws.id, patientId: p.id, assignedTherapistId: owner.userId }]);
    await t.patch(`${P}/${p.id}`, { phone: '600111222' }, { token: owner.accessToken });
    await t.put(`${P}/${p.id}/treatment`, { status: 'paused' }, { token: owner.accessToken });
    expect(updated.seen).toEqual([
      { workspaceId: ws.id, patientId: p.id, parts: ['personal'], treatmentStatus: 'active' },
      { workspaceId: ws.id, patientId: p.id, parts: ['treatment'], treatmentStatus: 'paused' },
    ]);
    await t.put(`${P}/${p.id}/assignment`, { therapistId: null }, { token: owner.accessToken });
    expect(assigned.seen).toEqual([{ workspaceId: ws.id, patientId: p.id, therapistId: null, previousTherapistId: owner.userId }]);
    // A rejected write emits nothing.
    expect((await t.patch(`${P}/${p.id}`, { firstName: '' }, { token: owner.accessToken })).statusCode).toBe(400);
    expect(updated.seen).toHaveLength(2);

    await t.rows(
      sql`update patients set last_activity_at = now() - interval '6 years', treatment_end_date = (now() - interval '6 years')::date where id = ${p.id}`,
    );
    expect(json(await t.del(`${P}/${p.id}`, { token: owner.accessToken }))).toMatchObject({ result: 'deleted' });
    expect(erased.seen).toEqual([{ workspaceId: ws.id, patientId: p.id }]);
    for (const r of [created, updated, assigned, erased]) r.off();
  });

  it('users: user.profile_updated names the changed fields, and the websocket frame still carries the profile', async () => {
    const profile = record('user.profile_updated');
    await t.patch('/api/v1/me', { firstName: 'Inés María', phone: '600000000' }, { token: owner.accessToken });
    expect(profile.seen).toEqual([{ userId: owner.userId, fields: ['firstName', 'phone'] }]);
    profile.off();
  });
});

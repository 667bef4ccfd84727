// A computation's statements in turns on PGlite: another caller's statement passes between them.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTurns, takeTurns } from './statement-turns';

let client: PGlite;
beforeAll(async () => {
  client = takeTurns(await PGlite.create());
});
afterAll(() => client?.close());

/** Three statements sent at once by one computation, the first a slow one; another caller's while it runs. */
async function answeredOrder(computation: (fn: () => Promise<unknown>) => Promise<unknown>) {
  const order: string[] = [];
  const sent = (name: string, text = 'select 1') => client.query(text).then(() => void order.push(name));
  const mine = computation(() => Promise.all([sent('a1', 'select pg_sleep(0.2)'), sent('a2'), sent('a3')]));
  await new Promise((r) => setTimeout(r, 50));
  await Promise.all([mine, sent('other')]);
  return order;
}

describe('statements in turns (PGlite)', () => {
  it('lets another caller’s statement in after the first of a computation sent at once, not after all of them', async () => {
    expect(await answeredOrder((fn) => inTurns(fn))).toEqual(['a1', 'other', 'a2', 'a3']);
  });

  it('changes nothing outside inTurns: the statements run in the order sent', async () => {
    expect(await answeredOrder((fn) => fn())).toEqual(['a1', 'a2', 'a3', 'other']);
  });

  it('goes on after a refused statement and gives the refusal to its own caller only', async () => {
    const answers = await inTurns(() =>
      Promise.allSettled([client.query('select nope'), client.exec('select 2'), client.query<{ n: number }>('select 3 as n')]),
    );
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect((answers[2] as PromiseFulfilledResult<{ rows: { n: number }[] }>).value.rows).toEqual([{ n: 3 }]);
  });

  it('leaves transactions alone: a computation in turns can run one', async () => {
    const n = await inTurns(async () => {
      const [inside] = await Promise.all([
        client.transaction(async (tx) => (await tx.query<{ n: number }>('select 4 as n')).rows[0]!.n),
        client.query('select 5'),
      ]);
      return inside;
    });
    expect(n).toBe(4);
  });
});

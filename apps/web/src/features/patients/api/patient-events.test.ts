import { describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { patientKeys } from './keys';
import { forgetPatient, onPatientEvent } from './patient-events';

/** A cache with a list and two open patient files, each counting its reads. */
function cache() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const reads: string[] = [];
  const watch = (key: readonly unknown[], name: string) => {
    const observer = new QueryObserver(qc, { queryKey: key, queryFn: async () => (reads.push(name), name) });
    const stop = observer.subscribe(() => undefined);
    return { observer, stop };
  };
  const open = [
    watch(patientKeys.lists('w1'), 'list'),
    watch(patientKeys.detail('w1', 'p1'), 'p1'),
    watch([...patientKeys.detail('w1', 'p1'), 'connect'], 'p1-connect'),
    watch(patientKeys.detail('w1', 'p2'), 'p2'),
  ];
  return { qc, reads, open, settled: () => Promise.all(open.map((o) => o.observer.refetch())).then(() => (reads.length = 0)) };
}

const idle = (qc: QueryClient) => expect.poll(() => qc.isFetching()).toBe(0);

describe('patient events heard live', () => {
  it('does not ask again for a patient just blocked (a 404 for who deleted it), and forgets what nobody shows', async () => {
    const { qc, reads, settled, open } = cache();
    await settled();
    open[2]!.stop(); // the «connect» query is no longer on screen
    onPatientEvent(qc, 'w1', 'patient.blocked', 'p1');
    await idle(qc);
    expect(reads.sort()).toEqual(['list', 'p2']);
    // On screen: left as it is, not even marked stale (a remount would refetch it).
    expect(qc.getQueryState(patientKeys.detail('w1', 'p1'))).toMatchObject({ isInvalidated: false, data: 'p1' });
    expect(qc.getQueryState([...patientKeys.detail('w1', 'p1'), 'connect'])).toBeUndefined();
    // Once its screen is gone, forgetting it drops it.
    open[1]!.stop();
    forgetPatient(qc, 'w1', 'p1');
    expect(qc.getQueryState(patientKeys.detail('w1', 'p1'))).toBeUndefined();
  });

  it('refetches every patient query on any other change', async () => {
    const { qc, reads, settled } = cache();
    await settled();
    onPatientEvent(qc, 'w1', 'patient.updated', 'p1');
    await idle(qc);
    expect(reads.sort()).toEqual(['list', 'p1', 'p1-connect', 'p2']);
  });
});

import { describe, expect, it } from 'vitest';
import { checkEdit, checkNewTask } from './task-input';

describe('task input as typed', async () => {
  it('reads DD/MM/AAAA into a day and trims the title', async () => {
    expect(await checkNewTask('  Llamar a la mutua ', '25/11/2026')).toEqual({
      ok: true,
      value: { title: 'Llamar a la mutua', dueDate: '2026-11-25' },
    });
    expect(await checkNewTask('Sin fecha', '')).toEqual({ ok: true, value: { title: 'Sin fecha', dueDate: null } });
    expect(await checkEdit('Otra', '1/2/2027')).toEqual({ ok: true, value: { title: 'Otra', dueDate: '2027-02-01' } });
  });

  it('refuses an empty title, a day not in the calendar and a title past 200, in Spanish', async () => {
    expect(await checkNewTask('   ', '')).toMatchObject({ ok: false, field: 'title', error: expect.stringMatching(/título/i) });
    expect(await checkNewTask('Tarea', '30/02/2026')).toMatchObject({
      ok: false,
      field: 'dueDate',
      error: expect.stringMatching(/fecha/i),
    });
    expect(await checkEdit('x'.repeat(201), '')).toMatchObject({ ok: false, error: expect.stringContaining('200') });
  });
});

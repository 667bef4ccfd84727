import { formatDayEs } from '@divan/core';
import { useCallback } from 'react';
import { toast } from '@/lib/toast';
import { messageOf } from '@/lib/error-message';
import { describeConflicts } from '../utils/conflicts';
import { useUpdateSession } from './sessions-api';
import type { GridSession, Scope } from './types';

export type MoveTarget = { day: string; from: string; to: string; therapistId?: string };

/**
 * Moves (or resizes) a session and offers «Deshacer», which moves it back. The same for a drag and for
 * the keyboard's «Mover sesión» dialog. Resolves to whether the server took it.
 */
export function useMoveSession(wid: string) {
  const update = useUpdateSession(wid);
  const move = useCallback(
    async (
      session: GridSession,
      to: MoveTarget,
      scope: Scope | undefined,
      what: 'Sesión movida' | 'Duración cambiada' = 'Sesión movida',
    ): Promise<boolean> => {
      const before: MoveTarget = {
        day: session.day,
        from: session.from,
        to: session.to,
        ...(to.therapistId ? { therapistId: session.therapist.id } : {}),
      };
      const body = {
        day: to.day,
        from: to.from,
        to: to.to,
        ...(to.therapistId ? { therapistId: to.therapistId } : {}),
        ...(scope ? { scope } : {}),
      };
      try {
        const res = await update.mutateAsync({ id: session.id, body });
        const many = res.updated && res.updated > 1 ? ` (${res.updated} sesiones)` : '';
        toast.success(`${what}${many}`, {
          description: `${session.patient.name} · ${formatDayEs(to.day)} ${to.from}–${to.to}`,
          action: {
            label: 'Deshacer',
            // mutateAsync, not mutate's callbacks: the dialog that moved it may be gone by now (its callbacks with it).
            onClick: () =>
              void update.mutateAsync({ id: session.id, body: { ...before, ...(scope ? { scope } : {}) } }).then(
                () => toast.success('Cambio deshecho'),
                (err: unknown) => toast.error(messageOf(err)),
              ),
          },
        });
        if (res.conflicts.length)
          toast.info('Atención: hay un solapamiento', { description: describeConflicts(res.conflicts), duration: 8000 });
        return true;
      } catch (error) {
        toast.error(messageOf(error));
        return false;
      }
    },
    [update],
  );
  return { move, pending: update.isPending };
}

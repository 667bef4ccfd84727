import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTaskBody, Task, UpdateTaskBody } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

/** One list per workspace and filter; every key starts with the workspace, so a switch never shows another's. */
export const taskKeys = {
  all: (wid: string) => workspaceKey(wid, 'tasks'),
  list: (wid: string, patientId?: string) => [...taskKeys.all(wid), patientId ?? 'mine'] as const,
};

const base = (wid: string) => `/workspaces/${wid}/tasks`;

/** The caller's tasks (of one patient when given): open first by due day, then the done ones, newest first. */
export const useTasks = (wid: string, patientId?: string) =>
  useQuery({
    queryKey: taskKeys.list(wid, patientId),
    queryFn: ({ signal }) => api<Task[]>(patientId ? `${base(wid)}?patientId=${encodeURIComponent(patientId)}` : base(wid), { signal }),
  });

/** A write refreshes every task list of the workspace (the dashboard's and the patients'). */
function useTaskWrite<V>(wid: string, fn: (vars: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => qc.invalidateQueries({ queryKey: taskKeys.all(wid) }),
  });
}

export const useCreateTask = (wid: string) => useTaskWrite(wid, (body: CreateTaskBody) => api<Task>(base(wid), { method: 'POST', body }));

/** Shown changed at once (ticking a box must feel instant); put back if the server refuses. */
export function useUpdateTask(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateTaskBody }) => api<Task>(`${base(wid)}/${id}`, { method: 'PATCH', body }),
    onMutate: async ({ id, body }) => {
      await qc.cancelQueries({ queryKey: taskKeys.all(wid) });
      const before = qc.getQueriesData<Task[]>({ queryKey: taskKeys.all(wid) });
      qc.setQueriesData<Task[]>({ queryKey: taskKeys.all(wid) }, (list) =>
        list?.map((t) =>
          t.id === id
            ? {
                ...t,
                ...(body.title !== undefined ? { title: body.title.trim() } : {}),
                ...(body.dueDate !== undefined ? { dueDate: body.dueDate || null } : {}),
                ...(body.done !== undefined ? { done: body.done, doneAt: body.done ? new Date().toISOString() : null } : {}),
              }
            : t,
        ),
      );
      return { before };
    },
    onError: (_err, _vars, ctx) => ctx?.before.forEach(([key, data]) => qc.setQueryData(key, data)),
    onSettled: () => qc.invalidateQueries({ queryKey: taskKeys.all(wid) }),
  });
}

export const useDeleteTask = (wid: string) => useTaskWrite(wid, (id: string) => api<null>(`${base(wid)}/${id}`, { method: 'DELETE' }));

import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ListTodo, Plus, RotateCw } from 'lucide-react';
import type { Task } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import { useCreateTask, useDeleteTask, useTasks, useUpdateTask } from '../api/tasks-api';
import { localDay, sortTasks } from '../utils/due';
import { messageOf } from '../utils/errors';
import { checkNewTask, loadTaskSchemas } from '../utils/task-input';
import { TaskItem } from './task-item';

type Props = {
  workspaceId: string;
  /** Inside a patient's file: only their tasks, and new ones are linked to them. */
  patient?: { id: string; name: string };
  className?: string;
};

/**
 * The member's own to-do list ("Tareas"): overdue and today's first, add with Enter, tick done, edit in
 * place, delete with «Deshacer». On the dashboard, and filtered to one patient in their overview.
 */
export function TasksCard({ workspaceId: wid, patient, className }: Props) {
  const tasks = useTasks(wid, patient?.id);
  const create = useCreateTask(wid);
  const update = useUpdateTask(wid);
  const remove = useDeleteTask(wid);
  const [title, setTitle] = useState('');
  const [due, setDue] = useState('');
  const [formError, setFormError] = useState<{ message: string; field: string } | null>(null);
  const [showDone, setShowDone] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);
  const dueInput = useRef<HTMLInputElement>(null);
  const ids = useId();
  const today = localDay();

  const { open, done } = useMemo(() => {
    const sorted = sortTasks(tasks.data ?? []);
    return { open: sorted.filter((t) => !t.done), done: sorted.filter((t) => t.done) };
  }, [tasks.data]);
  const pressing = open.filter((t) => t.dueDate && t.dueDate <= today).length;

  // The check waits for the contracts on a first Enter; a second Enter meanwhile is the same task.
  const checking = useRef(false);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (checking.current) return;
    checking.current = true;
    const checked = await checkNewTask(title, due, patient?.id).finally(() => (checking.current = false));
    if (!checked.ok) {
      setFormError({ message: checked.error, field: checked.field });
      (checked.field === 'dueDate' ? dueInput : titleInput).current?.focus();
      return;
    }
    setFormError(null);
    // Cleared at once, so the next task can be typed while this one is saved; put back if refused.
    const typed = { title, due };
    setTitle('');
    setDue('');
    titleInput.current?.focus();
    create.mutate(checked.value, {
      onError: (err) => {
        setFormError({ message: messageOf(err), field: 'title' });
        setTitle((now) => now || typed.title);
        setDue((now) => now || typed.due);
      },
    });
  };

  // A ticked task leaves the open list at once: the toast says where it went and can bring it back.
  const toggle = (task: Task, isDone: boolean) =>
    update.mutate(
      { id: task.id, body: { done: isDone } },
      {
        onSuccess: () => {
          if (isDone)
            toast.success('Tarea completada', {
              description: task.title,
              action: { label: 'Deshacer', onClick: () => toggle(task, false) },
            });
        },
        onError: (err) => toast.error(messageOf(err)),
      },
    );

  const save = (task: Task, changes: { title: string; dueDate: string | null }) =>
    update.mutateAsync({ id: task.id, body: changes }).catch((err: unknown) => {
      toast.error(messageOf(err));
      throw err;
    });

  // Deleted at once; «Deshacer» writes it again (same title, day, patient and state).
  const del = (task: Task) =>
    remove.mutate(task.id, {
      onSuccess: () =>
        toast.success('Tarea eliminada', {
          description: task.title,
          action: {
            label: 'Deshacer',
            onClick: () =>
              create.mutate(
                { title: task.title, dueDate: task.dueDate, ...(task.patient ? { patientId: task.patient.id } : {}) },
                {
                  onSuccess: (again) => {
                    if (task.done) update.mutate({ id: (again as Task).id, body: { done: true } });
                  },
                  onError: (err) => toast.error(messageOf(err)),
                },
              ),
          },
        }),
      onError: (err) => toast.error(messageOf(err)),
    });

  const item = (task: Task) => (
    <TaskItem
      key={task.id}
      task={task}
      today={today}
      showPatient={!patient}
      onToggle={(d) => toggle(task, d)}
      onSave={(changes) => save(task, changes)}
      onDelete={() => del(task)}
    />
  );

  return (
    <Card className={className} aria-labelledby={`${ids}-title`} role="region">
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle id={`${ids}-title`} className="flex items-center gap-2">
          <ListTodo className="size-4 text-primary" aria-hidden /> Tareas
        </CardTitle>
        {pressing ? (
          <span className="text-[0.8125rem] text-muted-foreground">
            {pressing === 1 ? '1 para hoy o vencida' : `${pressing} para hoy o vencidas`}
          </span>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <form onSubmit={(e) => void add(e)} onFocus={() => void loadTaskSchemas()} className="grid gap-1.5" noValidate>
          <div className="flex flex-wrap gap-2">
            <div className="min-w-0 flex-1 basis-48">
              <Input
                ref={titleInput}
                aria-label={patient ? `Nueva tarea sobre ${patient.name}` : 'Nueva tarea'}
                placeholder="Añadir una tarea y pulsar Enter"
                value={title}
                maxLength={250}
                onChange={(e) => setTitle(e.target.value)}
                aria-invalid={formError?.field === 'title'}
                aria-describedby={formError?.field === 'title' ? `${ids}-error` : undefined}
              />
            </div>
            <div className="w-32 shrink-0">
              <Input
                ref={dueInput}
                aria-label="Fecha límite de la nueva tarea (DD/MM/AAAA, opcional)"
                aria-invalid={formError?.field === 'dueDate'}
                aria-describedby={formError?.field === 'dueDate' ? `${ids}-error` : undefined}
                placeholder="DD/MM/AAAA"
                inputMode="numeric"
                autoComplete="off"
                value={due}
                onChange={(e) => setDue(e.target.value)}
              />
            </div>
            <Button type="submit">
              <Plus aria-hidden /> Añadir
            </Button>
          </div>
          {formError ? (
            <p id={`${ids}-error`} className="text-[0.8125rem] text-destructive" role="alert">
              {formError.message}
            </p>
          ) : null}
        </form>

        {tasks.isPending ? (
          <div className="grid place-items-center py-6">
            <Spinner label="Cargando tareas…" />
          </div>
        ) : tasks.isError ? (
          <Alert variant="error" className="flex flex-wrap items-center justify-between gap-3">
            <span>No se pudieron cargar las tareas. {messageOf(tasks.error)}</span>
            <Button variant="outline" size="sm" onClick={() => void tasks.refetch()}>
              <RotateCw aria-hidden /> Reintentar
            </Button>
          </Alert>
        ) : (
          <>
            {open.length ? (
              <ul className="-mx-2 grid gap-0.5" aria-label="Tareas pendientes">
                {open.map(item)}
              </ul>
            ) : (
              <p className="py-2 text-sm text-muted-foreground">
                {patient ? 'No tienes tareas pendientes con este paciente.' : 'No tienes tareas pendientes.'}
              </p>
            )}
            {done.length ? (
              <div className="grid gap-2">
                <Button
                  type="button"
                  variant="link"
                  size="none"
                  className="justify-self-start"
                  aria-expanded={showDone}
                  onClick={() => setShowDone((s) => !s)}
                >
                  {showDone ? 'Ocultar completadas' : `Ver completadas (${done.length})`}
                </Button>
                {showDone ? (
                  <ul className="-mx-2 grid gap-0.5" aria-label="Tareas completadas">
                    {done.map(item)}
                  </ul>
                ) : null}
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

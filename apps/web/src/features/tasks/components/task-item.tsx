import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Check, Pencil, Trash2, UserRound, X } from 'lucide-react';
import type { Task } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { formatDate, isoDateToDmy } from '@/lib/format';
import { dueState } from '../utils/due';
import { checkEdit, loadTaskSchemas } from '../utils/task-input';

type Props = {
  task: Task;
  today: string;
  /** Off inside a patient's file: every task there is theirs. */
  showPatient: boolean;
  onToggle: (done: boolean) => void;
  onSave: (changes: { title: string; dueDate: string | null }) => Promise<unknown>;
  onDelete: () => void;
};

function DueLabel({ task, today }: { task: Task; today: string }) {
  const state = dueState(task, today);
  if (state === 'none') return null;
  const text =
    state === 'overdue'
      ? `Vencida · ${formatDate(task.dueDate)}`
      : state === 'today'
        ? 'Hoy'
        : state === 'tomorrow'
          ? 'Mañana'
          : formatDate(task.dueDate);
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium tabular-nums',
        state === 'overdue'
          ? 'bg-destructive/10 text-destructive'
          : state === 'today'
            ? 'bg-accent text-accent-foreground'
            : 'bg-muted text-muted-foreground',
      )}
      title={`Fecha límite: ${formatDate(task.dueDate)}`}
    >
      {text}
    </span>
  );
}

/** One task: tick it, edit it in place (Enter saves, Esc cancels), delete it. */
export function TaskItem({ task, today, showPatient, onToggle, onSave, onDelete }: Props) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(task.title);
  const [due, setDue] = useState(isoDateToDmy(task.dueDate));
  const [error, setError] = useState<{ message: string; field: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Focus goes back to the task once the editor closes, so the keyboard stays where it was.
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const open = () => {
    void loadTaskSchemas();
    setTitle(task.title);
    setDue(isoDateToDmy(task.dueDate));
    setError(null);
    setEditing(true);
  };
  // One save at a time: a second Enter while the first is checked or sent does nothing.
  const busy = useRef(false);
  const save = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const checked = await checkEdit(title, due);
      if (!checked.ok) return setError({ message: checked.error, field: checked.field });
      if (checked.value.title === task.title && checked.value.dueDate === task.dueDate) return setEditing(false);
      setSaving(true);
      await onSave(checked.value);
      setEditing(false);
    } catch {
      // The card shows the server's refusal; the editor stays open with what was typed.
    } finally {
      busy.current = false;
      setSaving(false);
    }
  };
  const keys = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setEditing(false);
    }
  };

  const errorId = `task-${task.id}-error`;
  if (editing)
    return (
      <li className="grid gap-2 rounded-lg border border-primary/40 bg-card p-3">
        <div className="flex flex-wrap gap-2">
          <div className="min-w-0 flex-1 basis-48">
            <Input
              autoFocus
              aria-label="Título de la tarea"
              value={title}
              maxLength={250}
              onChange={(e) => setTitle(e.target.value)}
              onKeyDown={keys}
              aria-invalid={error?.field === 'title'}
              aria-describedby={error?.field === 'title' ? errorId : undefined}
            />
          </div>
          <div className="w-32 shrink-0">
            <Input
              aria-label="Fecha límite (DD/MM/AAAA)"
              aria-invalid={error?.field === 'dueDate'}
              aria-describedby={error?.field === 'dueDate' ? errorId : undefined}
              placeholder="DD/MM/AAAA"
              inputMode="numeric"
              autoComplete="off"
              value={due}
              onChange={(e) => setDue(e.target.value)}
              onKeyDown={keys}
            />
          </div>
        </div>
        {error ? (
          <p id={errorId} className="text-[0.8125rem] text-destructive">
            {error.message}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(false)}>
            <X aria-hidden /> Cancelar
          </Button>
          <Button type="button" size="sm" loading={saving} onClick={() => void save()}>
            <Check aria-hidden /> Guardar
          </Button>
        </div>
      </li>
    );

  return (
    <li className="group flex items-start gap-3 rounded-lg px-2 py-2 hover:bg-muted/50">
      <input
        type="checkbox"
        checked={task.done}
        onChange={(e) => onToggle(e.target.checked)}
        aria-label={task.done ? `Marcar «${task.title}» como pendiente` : `Marcar «${task.title}» como hecha`}
        className="mt-0.5 size-[1.125rem] shrink-0 cursor-pointer accent-primary"
      />
      <div className="grid min-w-0 flex-1 gap-1">
        <button
          ref={editButton}
          type="button"
          onClick={open}
          className={cn(
            'min-w-0 cursor-text break-words rounded text-left text-sm leading-snug focus-visible:outline-2 focus-visible:outline-ring',
            task.done && 'text-muted-foreground line-through',
          )}
          aria-label={`Editar tarea «${task.title}»`}
        >
          {task.title}
        </button>
        {(task.dueDate && !task.done) || (showPatient && task.patient?.name) ? (
          <div className="flex flex-wrap items-center gap-2">
            {!task.done ? <DueLabel task={task} today={today} /> : null}
            {showPatient && task.patient?.name ? (
              <Link
                to={`/patients/${task.patient.id}/overview`}
                className="inline-flex items-center gap-1 text-xs text-primary hover:underline"
              >
                <UserRound className="size-3.5" aria-hidden /> {task.patient.name}
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-0.5 opacity-100 sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8"
          onClick={open}
          aria-label={`Editar «${task.title}»`}
          tabIndex={-1}
        >
          <Pencil aria-hidden />
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground hover:text-destructive"
          onClick={onDelete}
          aria-label={`Eliminar «${task.title}»`}
        >
          <Trash2 aria-hidden />
        </Button>
      </div>
    </li>
  );
}

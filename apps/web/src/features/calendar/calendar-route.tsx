import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { canAny, canOn, scopeFor, type Workspace } from '@divan/core';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { usePageTitle } from '@/lib/use-page-title';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useGoogleBusy } from '@/lib/google-calendar';
import { useSessionRange, useTherapists } from './api/sessions-api';
import type { GridSession, Scope } from './api/types';
import { useMoveSession } from './api/use-move';
import { CalendarToolbar } from './components/calendar-toolbar';
import { DragScopeDialog } from './components/drag-scope-dialog';
import { EventCalendar, type Change, type Slot } from './components/event-calendar';
import { SessionDetailDialog } from './components/session-detail-dialog';
import { SessionFormDialog, type FormMode } from './components/session-form-dialog';
import { CalendarStates } from './components/calendar-states';
import { apiRange, gridDate, dayOf, today as todayInMadrid } from './utils/dates';
import { toBusyEvents } from './utils/busy-events';
import { toGridEvents } from './utils/grid-events';
import { scrollTimeFor, WORKDAY_START } from './utils/scroll-time';
import { readViewState, writeViewState, type ViewName, type ViewState } from './utils/view-state';

const PHONE = '(max-width: 639px)';
const subscribe = (cb: () => void) => {
  const mq = window.matchMedia(PHONE);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
};
const usePhone = () => useSyncExternalStore(subscribe, () => window.matchMedia(PHONE).matches);

export function CalendarRoute() {
  usePageTitle('Calendario');
  const workspace = useCurrentWorkspace();
  if (!isRealWorkspace(workspace.id)) return <PageSpinner />;
  return <CalendarScreen key={workspace.id} workspace={workspace} />;
}

/** The week of a therapist or a team: see, create, move, resize and close sessions. */
function CalendarScreen({ workspace }: { workspace: Workspace }) {
  const wid = workspace.id;
  const ability = useAbility();
  const userId = useAuthStore((s) => s.userId) ?? '';
  const phone = usePhone();
  const [params, setParams] = useSearchParams();
  const today = todayInMadrid();
  const defaults = useMemo(() => ({ today, phone }), [today, phone]);
  const state = readViewState(params, defaults);

  const readScope = scopeFor(ability, 'read', 'sessions', userId);
  const canCreate = canAny(ability, 'create', 'sessions');
  const bookForOthers = scopeFor(ability, 'create', 'sessions', userId).kind === 'all';
  const therapists = useTherapists(wid, canAny(ability, 'read', 'members'));
  const team = readScope.kind === 'all' && (therapists.data?.length ?? 0) > 1;
  const mine = !team || state.who === 'mine';
  const view: ViewName = state.view === 'team' && !team ? 'day' : state.view;

  const [range, setRange] = useState<{ startDay: string; endDay: string; title: string } | null>(null);
  const sessions = useSessionRange(wid, range ? apiRange(range.startDay, range.endDay) : null, mine && team ? userId : undefined);
  const list = useMemo(() => sessions.data ?? [], [sessions.data]);
  const scrollTime = useOpeningTime(range, sessions.isPlaceholderData ? undefined : sessions.data);
  // The signed-in therapist's own Google busy times, where their time is what is shown: their calendar, or
  // their column of the team's day (a team's week mixes everyone, and a grey block there would say whose?).
  const showBusy = mine || view === 'team';
  const apiDays = range ? apiRange(range.startDay, range.endDay) : null;
  const googleBusy = useGoogleBusy(wid, showBusy && view !== 'agenda' && view !== 'month' ? apiDays : null);
  const busy = useMemo(
    () => (showBusy && googleBusy.data ? toBusyEvents(googleBusy.data, userId) : []),
    [showBusy, googleBusy.data, userId],
  );

  const [form, setForm] = useState<FormMode | null>(null);
  const [drag, setDrag] = useState<{ session: GridSession; change: Change } | null>(null);
  const detailId = params.get('session');
  const { move } = useMoveSession(wid);

  const update = useCallback(
    (patch: Partial<ViewState>) =>
      setParams((prev) => writeViewState(prev, { ...readViewState(prev, defaults), ...patch }, defaults), { replace: true }),
    [setParams, defaults],
  );
  const setParam = useCallback(
    (key: string, value: string | null, replace = false) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === null) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  // Entry points of contract.md: ?new=1 (&patientId=) opens «Nueva sesión» once, then leaves the URL.
  useEffect(() => {
    if (params.get('new') !== '1') return;
    const patientId = params.get('patientId');
    if (canCreate)
      setForm({
        kind: 'create',
        init: { day: state.date, patientId: patientId ?? '' },
        patient: patientId ? { id: patientId, name: '' } : null,
      });
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('new');
        next.delete('patientId');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams, canCreate, state.date]);

  const events = useMemo(
    () =>
      toGridEvents(list, {
        colorBy: state.color,
        therapists: therapists.data ?? [],
        showTherapist: team && !mine,
        editable: (s) => canOn(ability, 'update', 'sessions', { ownerId: s.therapist.id }),
      }),
    [list, state.color, therapists.data, team, mine, ability],
  );
  const resources = useMemo(
    () => (therapists.data ?? []).filter((t) => !mine || t.id === userId).map((t) => ({ id: t.id, title: t.name })),
    [therapists.data, mine, userId],
  );

  if (readScope.kind === 'none') return <NoAccess title="Calendario" />;

  const onSelect = (slot: Slot) => {
    if (!canCreate) return;
    const therapistId = slot.resourceId && bookForOthers ? slot.resourceId : '';
    setForm({ kind: 'create', init: { day: slot.day, from: slot.from, to: slot.to, therapistId }, patient: null });
  };

  const onChange = (change: Change) => {
    const session = list.find((s) => s.id === change.id);
    if (!session) return change.revert();
    const therapistId = change.resourceId && change.resourceId !== session.therapist.id ? change.resourceId : undefined;
    const target = { day: change.day, from: change.from, to: change.to, ...(therapistId ? { therapistId } : {}) };
    if (session.series) return setDrag({ session, change });
    void move(session, target, undefined, change.kind === 'resize' ? 'Duración cambiada' : 'Sesión movida').then(
      (ok) => ok || change.revert(),
    );
  };

  const finishDrag = (scope: Scope | null) => {
    if (!drag) return;
    const { session, change } = drag;
    setDrag(null);
    if (!scope) return change.revert();
    const therapistId = change.resourceId && change.resourceId !== session.therapist.id ? change.resourceId : undefined;
    void move(
      session,
      { day: change.day, from: change.from, to: change.to, ...(therapistId ? { therapistId } : {}) },
      scope,
      change.kind === 'resize' ? 'Duración cambiada' : 'Sesión movida',
    ).then((ok) => ok || change.revert());
  };

  const step = (dir: -1 | 1) => {
    const d = gridDate(state.date, '12:00');
    if (view === 'month') d.setMonth(d.getMonth() + dir, 1);
    else d.setDate(d.getDate() + dir * (view === 'week' || view === 'agenda' ? 7 : 1));
    update({ date: dayOf(d) });
  };

  return (
    <div className="grid gap-4">
      <CalendarToolbar
        title={range?.title ?? ''}
        state={{ ...state, view }}
        team={team}
        fetching={sessions.isFetching}
        canCreate={canCreate}
        onView={(v) => update({ view: v })}
        onWho={(who) => update({ who })}
        onColor={(color) => update({ color })}
        onToday={() => update({ date: today })}
        onStep={step}
        onNew={() => setForm({ kind: 'create', init: { day: state.date === today || !range ? today : range.startDay }, patient: null })}
        legend={state.color === 'status' ? 'status' : team && !mine ? (therapists.data ?? []) : null}
      />
      <CalendarStates sessions={sessions} count={list.length} view={view} canCreate={canCreate} />
      <div className="overflow-hidden rounded-xl border bg-card p-1 shadow-xs sm:p-2">
        <EventCalendar
          view={view}
          date={state.date}
          events={events}
          busy={busy}
          resources={resources}
          editable={canCreate}
          height={phone ? 'calc(100dvh - 16rem)' : 'max(560px, calc(100dvh - 14rem))'}
          scrollTime={scrollTime}
          onRange={setRange}
          onSelect={onSelect}
          onOpen={(id) => setParam('session', id)}
          onChange={onChange}
        />
      </div>

      {form ? (
        <SessionFormDialog
          workspaceId={wid}
          mode={form}
          therapists={therapists.data ?? []}
          chooseTherapist={bookForOthers}
          maxReminders={workspace.features.sessionReminders}
          onScreen={list}
          onClose={() => setForm(null)}
          onSaved={(s) => {
            setForm(null);
            if (s.day < (range?.startDay ?? '') || s.day >= (range?.endDay ?? '')) update({ date: s.day });
          }}
        />
      ) : null}
      {detailId ? (
        <SessionDetailDialog
          workspaceId={wid}
          sessionId={detailId}
          onClose={() => setParam('session', null)}
          onLoaded={(s) => {
            if (range && (s.day < range.startDay || s.day >= range.endDay)) update({ date: s.day });
          }}
          onEdit={(s) => {
            setParam('session', null);
            setForm({ kind: 'edit', session: s });
          }}
        />
      ) : null}
      {drag ? <DragScopeDialog session={drag.session} onChoose={finishDrag} /> : null}
    </div>
  );
}

/**
 * Where the grid opens for a range: decided once, when its sessions first arrive (a session created or
 * moved afterwards does not make the grid jump under the pointer).
 */
function useOpeningTime(range: { startDay: string; endDay: string } | null, sessions: GridSession[] | undefined): string {
  const key = range ? `${range.startDay}/${range.endDay}` : '';
  const [opening, setOpening] = useState({ key: '', time: WORKDAY_START });
  if (sessions && key && opening.key !== key) setOpening({ key, time: scrollTimeFor(sessions) });
  return opening.time;
}

export { CalendarRoute as Component };

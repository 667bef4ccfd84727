import { useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Download, Eye, EyeOff } from 'lucide-react';
import {
  ANALYTICS_TAB_LABELS,
  DEFAULT_TIME_ZONE,
  isIsoDay,
  periodProblem,
  presetPeriod,
  todayIn,
  type AnalyticsTab,
  type Period,
} from '@divan/core';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { NoAccess } from '@/components/ui/no-access';
import { LoadError } from '@/components/ui/states';
import { PageSpinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { usePermits } from '@/lib/permits';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';
import { useCurrentWorkspace } from '@/stores/workspaces-store';
import { useDashboardStats, type AnalyticsFilter } from './api/analytics-api';
import { downloadTab } from './api/analytics-export';
import { CardRowsDialog, type OpenCard } from './components/card-rows-dialog';
import { PeriodPicker } from './components/period-picker';
import { PlanGate } from './components/plan-gate';
import { BillingTab } from './tabs/billing-tab';
import { PatientsTab } from './tabs/patients-tab';
import { SessionsTab } from './tabs/sessions-tab';
import { TreatmentsTab } from './tabs/treatments-tab';
import type { TabProps } from './tabs/tab-props';
import { setAmountsHidden, useAmountsHidden } from './utils/hidden-amounts';

const ORDER: AnalyticsTab[] = ['patients', 'treatments', 'sessions', 'billing'];
const PANELS: Record<AnalyticsTab, (p: TabProps) => React.ReactNode> = {
  patients: PatientsTab,
  treatments: TreatmentsTab,
  sessions: SessionsTab,
  billing: BillingTab,
};

/**
 * /analytics: four tabs over a period (a preset or days), against the period before, for the member,
 * one therapist or the whole workspace as their permissions allow. The tab, period and scope live in
 * the address, so a view can be bookmarked and the back button walks through them.
 */
export function AnalyticsRoute() {
  usePageTitle('Estadísticas');
  const workspace = useCurrentWorkspace();
  const ability = usePermits();
  const hidden = useAmountsHidden();
  const stats = useDashboardStats(workspace.id);
  const [params, setParams] = useSearchParams();
  const [openCard, setOpenCard] = useState<OpenCard | null>(null);
  const [exporting, setExporting] = useState<'xlsx' | 'csv' | null>(null);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  // Each tab counts what its subject's permission reads (the server's door is the same).
  const readable: Record<AnalyticsTab, boolean> = {
    patients: ability.can('read', 'patient_files'),
    treatments: ability.can('read', 'patient_treatment'),
    sessions: ability.can('read', 'sessions'),
    billing: ability.can('read', 'invoices'),
  };
  const tabs = ORDER.filter((t) => readable[t]);
  const today = stats.data?.today ?? todayIn(DEFAULT_TIME_ZONE);
  const asked = params.get('tab') as AnalyticsTab | null;
  const tab = asked && tabs.includes(asked) ? asked : tabs[0];
  const fromUrl = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const period: Period =
    isIsoDay(fromUrl.from) && isIsoDay(fromUrl.to) && !periodProblem(fromUrl) ? fromUrl : presetPeriod('this_month', today);
  const therapistId = params.get('therapist') ?? undefined;
  const filter: AnalyticsFilter = { ...period, ...(therapistId ? { therapistId } : {}) };

  const update = (next: Record<string, string | null>) =>
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        for (const [k, v] of Object.entries(next)) {
          if (v === null) q.delete(k);
          else q.set(k, v);
        }
        return q;
      },
      { replace: false },
    );
  const onTabKey = (e: KeyboardEvent, i: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (i + delta + tabs.length) % tabs.length;
    tabRefs.current[next]?.focus();
    update({ tab: tabs[next]! });
  };
  const exportAs = async (format: 'xlsx' | 'csv') => {
    if (!tab) return;
    setExporting(format);
    try {
      await downloadTab(workspace.id, tab, filter, format);
    } catch (e) {
      toast.error(`No se pudo exportar. ${messageOf(e)}`);
    } finally {
      setExporting(null);
    }
  };

  if (stats.isPending) return <PageSpinner />;
  if (stats.isError) return <LoadError error={stats.error} onRetry={() => void stats.refetch()} what="las estadísticas" />;
  const s = stats.data;
  const Panel = tab ? PANELS[tab] : null;
  const scopeOptions = s.scope.workspace
    ? [{ value: '', label: 'Todo el espacio' }, ...s.scope.therapists.map((t) => ({ value: t.therapistId, label: t.name }))]
    : [];

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <p className="text-[0.8125rem] font-medium text-muted-foreground">{workspace.name}</p>
          <h1 className="font-display text-3xl font-semibold tracking-tight">Estadísticas</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" aria-pressed={hidden} onClick={() => setAmountsHidden(!hidden)}>
            {hidden ? <Eye aria-hidden /> : <EyeOff aria-hidden />}
            {hidden ? 'Mostrar importes' : 'Ocultar importes'}
          </Button>
          {s.advanced && tab ? (
            <>
              <Button
                variant="outline"
                size="sm"
                loading={exporting === 'xlsx'}
                disabled={exporting !== null}
                onClick={() => void exportAs('xlsx')}
              >
                <Download aria-hidden /> Excel
              </Button>
              <Button
                variant="outline"
                size="sm"
                loading={exporting === 'csv'}
                disabled={exporting !== null}
                onClick={() => void exportAs('csv')}
              >
                <Download aria-hidden /> CSV
              </Button>
            </>
          ) : null}
        </div>
      </header>

      {!s.advanced ? (
        <PlanGate stats={s} hidden={hidden} />
      ) : !tab || !Panel ? (
        <NoAccess title="Estadísticas" />
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
            <PeriodPicker
              key={`${period.from}:${period.to}`}
              value={period}
              today={today}
              onChange={(p) => update({ from: p.from, to: p.to })}
            />
            {scopeOptions.length ? (
              <Field label="De quién" className="w-56">
                <NativeSelect
                  value={therapistId ?? ''}
                  onChange={(e) => update({ therapist: e.target.value || null })}
                  options={scopeOptions}
                />
              </Field>
            ) : (
              <p className="pb-2.5 text-sm text-muted-foreground">Tus cifras</p>
            )}
          </div>
          <div role="tablist" aria-label="Estadísticas" className="-mx-4 flex gap-1 overflow-x-auto border-b px-4 sm:mx-0 sm:px-0">
            {tabs.map((t, i) => (
              <button
                key={t}
                ref={(el) => {
                  tabRefs.current[i] = el;
                }}
                id={`analytics-tab-${t}`}
                type="button"
                role="tab"
                aria-selected={t === tab}
                aria-controls="analytics-panel"
                tabIndex={t === tab ? 0 : -1}
                onClick={() => update({ tab: t })}
                onKeyDown={(e) => onTabKey(e, i)}
                className={cn(
                  '-mb-px h-10 shrink-0 border-b-2 px-3 text-sm font-medium transition-colors',
                  t === tab ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
                )}
              >
                {ANALYTICS_TAB_LABELS[t]}
              </button>
            ))}
          </div>
          <section id="analytics-panel" role="tabpanel" aria-labelledby={`analytics-tab-${tab}`}>
            <Panel
              key={tab}
              workspaceId={workspace.id}
              filter={filter}
              hidden={hidden}
              open={(card, title) => setOpenCard({ card, title })}
            />
          </section>
          <CardRowsDialog
            workspaceId={workspace.id}
            tab={tab}
            open={openCard}
            filter={filter}
            hidden={hidden}
            onClose={() => setOpenCard(null)}
          />
        </>
      )}
    </div>
  );
}

export { AnalyticsRoute as Component };

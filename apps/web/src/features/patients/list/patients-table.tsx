import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ArrowDown, ArrowUp, ArrowUpDown, FolderOpen, Mail, MoreHorizontal, Phone, UserRoundCog } from 'lucide-react';
import { formatPhone, TREATMENT_MOTIVE, type PatientSummary } from '@divan/core';
import { Avatar } from '@/components/ui/avatar';
import { Card } from '@/components/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/cn';
import { StatusBadge } from '../components/status-badge';
import { Skeleton } from '../components/skeleton';
import { labelOf, patientName } from '../utils/format';
import type { ListState, Sort } from './list-params';

type Props = {
  items: PatientSummary[];
  state: ListState;
  onSort: (sort: Sort) => void;
  showTherapist: boolean;
  onAssign: ((p: PatientSummary) => void) | null;
};

const detailPath = (p: PatientSummary) => `/patients/${p.id}/overview`;

function SortHeader({
  sort,
  state,
  onSort,
  children,
  className,
}: {
  sort: Sort;
  state: ListState;
  onSort: (s: Sort) => void;
  children: ReactNode;
  className?: string;
}) {
  const active = state.sort === sort;
  const Icon = !active ? ArrowUpDown : state.dir === 'asc' ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (state.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={cn('px-3 py-2.5 text-left font-medium', className)}
    >
      <button
        type="button"
        onClick={() => onSort(sort)}
        className="-mx-1 inline-flex max-w-full items-center gap-1.5 rounded px-1 hover:text-foreground"
      >
        <span className="truncate">{children}</span>
        <Icon className={cn('size-3.5 shrink-0', !active && 'opacity-50')} aria-hidden />
      </button>
    </th>
  );
}

function RowMenu({ patient, onAssign }: { patient: PatientSummary; onAssign: Props['onAssign'] }) {
  const navigate = useNavigate();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="grid size-8 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
        aria-label={`Acciones de ${patientName(patient)}`}
      >
        <MoreHorizontal className="size-4" aria-hidden />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => void navigate(detailPath(patient))}>
          <FolderOpen aria-hidden /> Abrir ficha
        </DropdownMenuItem>
        {onAssign ? (
          <DropdownMenuItem onSelect={() => onAssign(patient)}>
            <UserRoundCog aria-hidden /> Asignar terapeuta…
          </DropdownMenuItem>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function Contact({ p }: { p: PatientSummary }) {
  if (!p.email && !p.phone) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="grid min-w-0 gap-0.5">
      {p.email ? (
        <span className="truncate" title={p.email}>
          {p.email}
        </span>
      ) : null}
      {p.phone ? <span className="whitespace-nowrap text-muted-foreground">{formatPhone(p.phone)}</span> : null}
    </div>
  );
}

const therapistOf = (p: PatientSummary) => p.assignedTherapist?.name || 'Sin asignar';

/**
 * A table on wide screens, cards on phones; each name is a link, so it all works from the keyboard.
 * Layout: short columns (DNI, estado, inicio, acciones) have fixed widths, name, contact and therapist
 * a share of the width, and the motive the rest, never less than ~9 rem: the table scrolls sideways
 * rather than squeeze it. Long texts are cut with an ellipsis and shown whole on hover (title).
 * Columns of fields the member may not read (DNI without billing, the treatment without its
 * permission) are not there at all.
 */
export function PatientsTable({ items, state, onSort, showTherapist, onAssign }: Props) {
  const navigate = useNavigate();
  const showTaxId = items.some((p) => p.taxId !== undefined);
  const showTreatment = items.some((p) => p.status !== undefined);
  // With a therapist column the DNI waits for very wide screens.
  const taxIdCell = showTherapist ? 'hidden 2xl:table-cell' : 'hidden xl:table-cell';
  return (
    <>
      <div className="hidden overflow-x-auto rounded-xl border bg-card lg:block">
        <table className="w-full min-w-[44rem] table-fixed text-sm">
          <thead className="border-b bg-muted/50 text-[0.8125rem] text-muted-foreground">
            <tr>
              <SortHeader sort="lastName" state={state} onSort={onSort} className={showTherapist ? 'w-[22%]' : 'w-[26%]'}>
                Paciente
              </SortHeader>
              <th scope="col" className={cn('truncate px-3 py-2.5 text-left font-medium', showTherapist ? 'w-[20%]' : 'w-[24%]')}>
                Contacto
              </th>
              {showTaxId ? (
                <th scope="col" className={cn('w-28 truncate px-3 py-2.5 text-left font-medium', taxIdCell)}>
                  DNI/NIE
                </th>
              ) : null}
              {showTreatment ? (
                <>
                  <th scope="col" className="w-[6.5rem] truncate px-3 py-2.5 text-left font-medium">
                    Estado
                  </th>
                  <th scope="col" className="truncate px-3 py-2.5 text-left font-medium">
                    Motivo
                  </th>
                  <SortHeader sort="treatmentStartDate" state={state} onSort={onSort} className="hidden w-28 xl:table-cell">
                    Inicio
                  </SortHeader>
                </>
              ) : null}
              {showTherapist ? (
                <th scope="col" className="w-[16%] truncate px-3 py-2.5 text-left font-medium">
                  Terapeuta
                </th>
              ) : null}
              <th scope="col" className="w-12 px-3 py-2.5">
                <span className="sr-only">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {items.map((p) => {
              const motive = labelOf(TREATMENT_MOTIVE, p.motive);
              return (
                <tr
                  key={p.id}
                  className="cursor-pointer transition-colors hover:bg-muted/40"
                  onClick={(e) => {
                    // Clicks on links and menus do their own thing.
                    if ((e.target as HTMLElement).closest('a,button,[role="menu"]')) return;
                    void navigate(detailPath(p));
                  }}
                >
                  <td className="px-3 py-3">
                    <div className="flex min-w-0 items-center gap-3">
                      {/* Below xl the name needs the room more than its initials do. */}
                      <span className="hidden shrink-0 xl:contents">
                        <Avatar name={patientName(p)} className="size-8 text-xs" />
                      </span>
                      <Link to={detailPath(p)} className="truncate font-medium hover:underline" title={patientName(p)}>
                        {patientName(p)}
                      </Link>
                    </div>
                  </td>
                  <td className="px-3 py-3">
                    <Contact p={p} />
                  </td>
                  {showTaxId ? (
                    <td className={cn('truncate px-3 py-3 tabular-nums', taxIdCell)}>
                      {p.taxId ?? <span className="text-muted-foreground">—</span>}
                    </td>
                  ) : null}
                  {showTreatment ? (
                    <>
                      <td className="px-3 py-3">
                        <StatusBadge status={p.status} />
                      </td>
                      <td className="truncate px-3 py-3" title={motive ?? undefined}>
                        {motive ?? <span className="text-muted-foreground">—</span>}
                      </td>
                      <td className="hidden whitespace-nowrap px-3 py-3 tabular-nums xl:table-cell">
                        {formatDate(p.treatmentStartDate ?? null) || '—'}
                      </td>
                    </>
                  ) : null}
                  {showTherapist ? (
                    <td className={cn('truncate px-3 py-3', !p.assignedTherapist && 'text-muted-foreground')} title={therapistOf(p)}>
                      {therapistOf(p)}
                    </td>
                  ) : null}
                  <td className="px-2 py-3 text-right">
                    <RowMenu patient={p} onAssign={onAssign} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <ul className="grid gap-3 md:grid-cols-2 lg:hidden">
        {items.map((p) => (
          <li key={p.id}>
            <Card className="relative p-4">
              <div className="flex items-start gap-3">
                <Avatar name={patientName(p)} className="size-10" />
                <div className="grid min-w-0 flex-1 gap-1">
                  <Link to={detailPath(p)} className="truncate font-medium after:absolute after:inset-0 after:content-['']">
                    {patientName(p)}
                  </Link>
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[0.8125rem] text-muted-foreground">
                    <StatusBadge status={p.status} />
                    {p.motive ? <span>{labelOf(TREATMENT_MOTIVE, p.motive)}</span> : null}
                  </div>
                  {p.email ? (
                    <span className="flex min-w-0 items-center gap-1.5 text-[0.8125rem] text-muted-foreground">
                      <Mail className="size-3.5 shrink-0" aria-hidden /> <span className="truncate">{p.email}</span>
                    </span>
                  ) : null}
                  {p.phone ? (
                    <span className="flex items-center gap-1.5 text-[0.8125rem] text-muted-foreground">
                      <Phone className="size-3.5 shrink-0" aria-hidden /> {formatPhone(p.phone)}
                    </span>
                  ) : null}
                  {showTherapist ? <span className="text-[0.8125rem] text-muted-foreground">Terapeuta: {therapistOf(p)}</span> : null}
                </div>
                <div className="relative z-10">
                  <RowMenu patient={p} onAssign={onAssign} />
                </div>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}

export function PatientsTableSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border bg-card" aria-busy="true" aria-label="Cargando pacientes">
      <div className="h-10 border-b bg-muted/50" />
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="flex items-center gap-4 border-b px-4 py-3.5 last:border-0">
          <Skeleton className="size-8 rounded-full" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="hidden h-4 w-48 sm:block" />
          <Skeleton className="ml-auto h-6 w-20 rounded-full" />
        </div>
      ))}
    </div>
  );
}

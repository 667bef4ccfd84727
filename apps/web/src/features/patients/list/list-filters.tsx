import { useCallback } from 'react';
import { X } from 'lucide-react';
import { SESSION_TYPE, TREATMENT_MOTIVE, PATIENT_SORTS } from '@divan/core';
import { Button } from '@/components/ui/button';
import { NativeSelect, optionsOf } from '@/components/ui/native-select';
import { SearchInput } from '@/components/ui/search-input';
import type { Therapist } from '../api/patients-api';
import { hasFilters, type ListState, type Sort } from './list-params';

const sortLabels: Record<Sort, string> = {
  lastName: 'Apellidos',
  firstName: 'Nombre',
  createdAt: 'Fecha de alta',
  treatmentStartDate: 'Inicio del tratamiento',
};

type Props = {
  state: ListState;
  update: (patch: Partial<ListState>, options?: { replace?: boolean }) => void;
  therapists: Therapist[] | null;
  /** Filtering and sorting by treatment data (motive, session type, start date) needs reading it (PATIENT_FIELDS). */
  treatment: boolean;
};

export function ListFilters({ state, update, therapists, treatment }: Props) {
  // Typing writes q once the user pauses, replacing the entry: Back doesn't replay every keystroke.
  const search = useCallback((q: string) => update({ q }, { replace: true }), [update]);

  const therapistOptions = therapists
    ? [{ value: 'unassigned', label: 'Sin asignar' }, ...therapists.map((t) => ({ value: t.id, label: t.name }))]
    : [];

  return (
    <div className="grid gap-3 lg:flex lg:flex-wrap lg:items-center">
      <SearchInput
        className="lg:w-[25rem]"
        value={state.q}
        onSearch={search}
        placeholder="Nombre, email, teléfono o DNI"
        aria-label="Buscar pacientes"
      />
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap">
        {therapists ? (
          <NativeSelect
            aria-label="Terapeuta"
            className="sm:w-48"
            placeholder="Terapeuta: todos"
            options={therapistOptions}
            value={state.therapist ?? ''}
            onChange={(e) => update({ therapist: e.target.value || null })}
          />
        ) : null}
        {treatment ? (
          <>
            <NativeSelect
              aria-label="Tipo de sesión"
              className="sm:w-40"
              placeholder="Tipo de sesión"
              options={optionsOf(SESSION_TYPE)}
              value={state.sessionType ?? ''}
              onChange={(e) => update({ sessionType: (e.target.value || null) as ListState['sessionType'] })}
            />
            <NativeSelect
              aria-label="Motivo de consulta"
              className="sm:w-52"
              placeholder="Motivo"
              options={optionsOf(TREATMENT_MOTIVE, true)}
              value={state.motive ?? ''}
              onChange={(e) => update({ motive: (e.target.value || null) as ListState['motive'] })}
            />
          </>
        ) : null}
        {/* On phones there are no column headers to sort by. */}
        <NativeSelect
          aria-label="Ordenar por"
          className="md:hidden"
          options={PATIENT_SORTS.filter((s) => treatment || s !== 'treatmentStartDate').flatMap((s) => [
            { value: `${s}:asc`, label: `${sortLabels[s]} ↑` },
            { value: `${s}:desc`, label: `${sortLabels[s]} ↓` },
          ])}
          value={`${state.sort}:${state.dir}`}
          onChange={(e) => {
            const [sort, dir] = e.target.value.split(':') as [Sort, 'asc' | 'desc'];
            update({ sort, dir });
          }}
        />
        {hasFilters(state) ? (
          <Button
            variant="ghost"
            className="col-span-2 justify-self-start sm:col-span-1"
            onClick={() => update({ q: '', therapist: null, sessionType: null, motive: null })}
          >
            <X aria-hidden /> Limpiar filtros
          </Button>
        ) : null}
      </div>
    </div>
  );
}

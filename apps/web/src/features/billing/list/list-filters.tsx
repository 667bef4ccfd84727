import { useCallback } from 'react';
import { X } from 'lucide-react';
import { INVOICE_STATUS, PAYMENT_STATUS } from '@divan/core';
import { Button } from '@/components/ui/button';
import { NativeSelect, optionsOf } from '@/components/ui/native-select';
import { SearchInput } from '@/components/ui/search-input';
import { PatientPicker, type PickedPatient } from '@/components/patient-picker';
import { DATE_PRESET_LABELS, DATE_PRESETS, type DatePreset } from '../utils/date-presets';
import { hasFilters, NO_FILTERS, type ListState } from '../utils/list-params';

type Props = {
  wid: string;
  state: ListState;
  update: (patch: Partial<ListState>, options?: { replace?: boolean }) => void;
  therapists: { id: string; name: string }[] | null;
  /** The series of the member's invoices; the filter shows when there is more than one. */
  series: string[];
  /** The filtered patient's name, once known (from the list's rows or the picker). */
  patient: PickedPatient | null;
  onPatient: (p: PickedPatient | null) => void;
};

export function ListFilters({ wid, state, update, therapists, series, patient, onPatient }: Props) {
  // Typing writes q once the user pauses, replacing the entry: Back doesn't replay every keystroke.
  const search = useCallback((q: string) => update({ q }, { replace: true }), [update]);

  return (
    <div className="grid gap-3">
      <div className="grid gap-3 md:grid-cols-2 lg:flex lg:flex-wrap">
        <SearchInput
          className="lg:w-80"
          value={state.q}
          onSearch={search}
          placeholder="Número o destinatario"
          aria-label="Buscar facturas"
        />
        <div className="lg:w-72">
          <PatientPicker
            workspaceId={wid}
            value={state.patient ? (patient ?? { id: state.patient, name: 'Paciente elegido' }) : null}
            onChange={(p) => {
              onPatient(p);
              update({ patient: p?.id ?? null });
            }}
            aria-label="Paciente"
            placeholder="Paciente: todos"
          />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap">
        <NativeSelect
          aria-label="Fechas"
          className="sm:w-48"
          placeholder="Fechas: todas"
          options={DATE_PRESETS.map((p) => ({ value: p, label: DATE_PRESET_LABELS[p] }))}
          value={state.period ?? ''}
          onChange={(e) => update({ period: (e.target.value || null) as DatePreset | null })}
        />
        <NativeSelect
          aria-label="Estado"
          className="sm:w-40"
          placeholder="Estado: todos"
          options={INVOICE_STATUS.values.map((value) => ({ value, label: INVOICE_STATUS.labels[value] }))}
          value={state.status ?? ''}
          onChange={(e) => update({ status: (e.target.value || null) as ListState['status'] })}
        />
        <NativeSelect
          aria-label="Estado de pago"
          className="sm:w-44"
          placeholder="Pago: todos"
          options={optionsOf(PAYMENT_STATUS)}
          value={state.payment ?? ''}
          onChange={(e) => update({ payment: (e.target.value || null) as ListState['payment'] })}
        />
        {therapists ? (
          <NativeSelect
            aria-label="Terapeuta"
            className="sm:w-48"
            placeholder="Terapeuta: todos"
            options={therapists.map((t) => ({ value: t.id, label: t.name }))}
            value={state.therapist ?? ''}
            onChange={(e) => update({ therapist: e.target.value || null })}
          />
        ) : null}
        {series.length > 1 || state.series ? (
          <NativeSelect
            aria-label="Serie"
            className="sm:w-40"
            placeholder="Serie: todas"
            options={(state.series && !series.includes(state.series) ? [state.series, ...series] : series).map((s) => ({
              value: s,
              label: `Serie ${s}`,
            }))}
            value={state.series ?? ''}
            onChange={(e) => update({ series: e.target.value || null })}
          />
        ) : null}
        {hasFilters(state) ? (
          <Button variant="ghost" className="col-span-2 justify-self-start sm:col-span-1" onClick={() => update(NO_FILTERS)}>
            <X aria-hidden /> Limpiar filtros
          </Button>
        ) : null}
      </div>
    </div>
  );
}

import { CHAT_AUTO_REPLY_MAX, type ChatOfficeHours } from '@divan/core';
import { normalizeHHmm } from '../../../lib/time-text';

export type Range = { start: string; end: string };
export type OfficeHoursForm = { enabled: boolean; timeZone: string; days: Range[][]; autoReply: string };
export type FormErrors = Record<string, string>;

/** ISO weekdays, Monday first (index 0 is Monday, weekday 1). */
export const WEEKDAYS = ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'] as const;
/** The server keeps at most this many ranges over the week. */
export const MAX_SLOTS = 28;
export const NEW_RANGE: Range = { start: '09:00', end: '14:00' };

export function toForm(h: ChatOfficeHours): OfficeHoursForm {
  const days: Range[][] = WEEKDAYS.map(() => []);
  for (const s of [...h.slots].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start)))
    days[s.weekday - 1]?.push({ start: s.start, end: s.end });
  return { enabled: h.enabled, timeZone: h.timeZone, days, autoReply: h.autoReply };
}

/** What PUT takes: the ranges as weekly slots, each day's in order. */
export function toBody(f: OfficeHoursForm): ChatOfficeHours {
  const slots = f.days.flatMap((ranges, i) =>
    ranges
      .map((r) => ({ weekday: i + 1, start: normalizeHHmm(r.start) ?? r.start, end: normalizeHHmm(r.end) ?? r.end }))
      .sort((a, b) => a.start.localeCompare(b.start)),
  );
  return { enabled: f.enabled, timeZone: f.timeZone, slots, autoReply: f.autoReply.trim() };
}

export const rangeKey = (day: number, index: number, field: 'start' | 'end') => `days.${day}.${index}.${field}`;

/**
 * The same rules as the server's (core's chatOfficeHoursBody), said next to the field, plus what the
 * server would take but is surely a slip: two ranges of a day that overlap. The reply is needed only
 * while the hours are on.
 */
export function validate(f: OfficeHoursForm): FormErrors {
  const errors: FormErrors = {};
  f.days.forEach((ranges, day) => {
    const valid: { start: string; end: string; index: number }[] = [];
    ranges.forEach((r, index) => {
      const start = normalizeHHmm(r.start);
      const end = normalizeHHmm(r.end);
      if (!start) errors[rangeKey(day, index, 'start')] = 'Hora no válida (HH:mm)';
      if (!end) errors[rangeKey(day, index, 'end')] = 'Hora no válida (HH:mm)';
      if (start && end && start >= end) errors[rangeKey(day, index, 'end')] = 'La hora de fin debe ser posterior a la de inicio';
      else if (start && end) valid.push({ start, end, index });
    });
    valid.sort((a, b) => a.start.localeCompare(b.start));
    for (let i = 1; i < valid.length; i++) {
      if (valid[i]!.start < valid[i - 1]!.end)
        errors[rangeKey(day, valid[i]!.index, 'start')] = `Se solapa con la franja de ${valid[i - 1]!.start} a ${valid[i - 1]!.end}`;
    }
  });
  const count = f.days.reduce((n, d) => n + d.length, 0);
  if (count > MAX_SLOTS) errors.slots = `Como máximo ${MAX_SLOTS} franjas en la semana.`;
  const reply = f.autoReply.trim();
  if (f.enabled && !reply) errors.autoReply = 'Escribe la respuesta automática que recibirán tus pacientes.';
  if (reply.length > CHAT_AUTO_REPLY_MAX)
    errors.autoReply = `La respuesta no puede superar ${CHAT_AUTO_REPLY_MAX.toLocaleString('es-ES')} caracteres.`;
  if (!f.timeZone) errors.timeZone = 'Elige una zona horaria.';
  return errors;
}

/** Whether the form differs from what is saved (the discard question and the save button follow it). */
export const isDirty = (f: OfficeHoursForm, saved: ChatOfficeHours) => JSON.stringify(toBody(f)) !== JSON.stringify(toBody(toForm(saved)));

import type { GridSession, RecurrenceInput, Session, SessionConflict } from '@divan/core';

/** A session as the calendar reads it; `series` and `noteMissing` come with the series API and the note guard. */
export type CalendarSession = Session;
/**
 * A session as the grid reads it (GET …/sessions/grid): what a box draws and a move needs. A full
 * CalendarSession is one too; the detail dialog reads the full one when a session is opened.
 */
export type { GridSession };
export type SeriesInfo = NonNullable<Session['series']>;
export type RecurrenceFrequency = RecurrenceInput['frequency'];
export type Scope = 'this' | 'following' | 'all';

export type SessionWrite = { session: CalendarSession; conflicts: SessionConflict[]; series?: { id: string; count: number } };
export type SessionUpdate = SessionWrite & { updated: number; removed: number };
export type CancelResult = { session: CalendarSession; canceled: number };

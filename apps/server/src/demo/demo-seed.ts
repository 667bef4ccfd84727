import type { FastifyInstance } from 'fastify';
import { INSURANCE_COMPANY, REFERRAL_SOURCE, createPatientBody, updateTreatmentBody } from '@divan/core';
import type { Caller } from '../platform/auth/caller';
import { DEMO_PASSWORD, DEMO_PATIENTS, DEMO_THERAPISTS, DEMO_WORKSPACE, notesFor, type DemoPatient } from './demo-data';

export type DemoResult = { workspaceId: string; created: number; existing: number; entries: number };

const DAY_MS = 86_400_000;
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '');

/**
 * The demo dataset of `npm run demo`, made through the services as the app would: two confirmed
 * therapists, a clinic on the Team plan and forty patients with history. Running it again adds
 * only what is missing (people are found by email), so it never duplicates.
 */
export async function seedDemo(app: FastifyInstance, now = new Date()): Promise<DemoResult> {
  const { workspaces, members, patients, history } = app.services;
  const lead = await ensureTherapist(app, DEMO_THERAPISTS.lead);
  const colleague = await ensureTherapist(app, DEMO_THERAPISTS.colleague);

  const ws =
    (await workspaces.listForUser(lead)).find((w) => w.name === DEMO_WORKSPACE) ??
    (await workspaces.create(lead, { name: DEMO_WORKSPACE, template: 'clinic' }));
  if (ws.plan.id !== 'team') await workspaces.setPlan(ws.id, { id: 'team', seats: 5 });
  if (!(await workspaces.isMember(ws.id, colleague))) {
    const owner = (await workspaces.resolveMembership(ws.id, lead))!;
    const invitation = await members.invite(owner, lead, {
      email: DEMO_THERAPISTS.colleague.email,
      roleIds: [ws.roles.find((r) => r.name === 'Terapeuta')!.id],
    });
    await members.accept(colleague, invitation.id);
  }
  const callers: Record<'lead' | 'colleague', Caller> = {
    lead: { member: (await workspaces.resolveMembership(ws.id, lead))!, userId: lead },
    colleague: { member: (await workspaces.resolveMembership(ws.id, colleague))!, userId: colleague },
  };

  const result: DemoResult = { workspaceId: ws.id, created: 0, existing: 0, entries: 0 };
  for (const [i, d] of DEMO_PATIENTS.entries()) {
    const email = `${slug(d.firstName)}.${slug(d.lastName.split(' ')[0]!)}@correo.test`;
    if (await patients.findDuplicate(ws.id, email, null)) {
      result.existing++;
      continue;
    }
    const start = new Date(now.getTime() - (d.months * 30 + 3 + (i % 9)) * DAY_MS);
    const body = createPatientBody.parse({
      firstName: d.firstName,
      lastName: d.lastName,
      email,
      phone: `6${String(10_000_000 + ((i * 7_919_371) % 89_999_999)).padStart(8, '0')}`.replace(/(\d{3})(\d{3})(\d{3})/, '$1 $2 $3'),
      birthdate: `${d.born}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
      gender: d.gender,
      billingInfo: {
        fullName: `${d.firstName} ${d.lastName}`,
        taxId: dni(30_000_000 + i * 104_729),
        line1: `Calle ${['Mayor', 'del Sol', 'Alcalá', 'Real', 'de la Paz'][i % 5]} ${(i % 80) + 1}`,
        city: d.city[0],
        zipCode: d.city[1],
        country: 'España',
      },
      treatment: {
        startDate: isoDay(start),
        motive: d.motive,
        sessionType: d.sessionType ?? 'individual',
        sessionModality: d.online ? 'online' : 'presential',
        sessionPrice: d.sessionType ? 7000 : [5000, 5500, 6000][i % 3],
        referralSource: REFERRAL_SOURCE.values[i % REFERRAL_SOURCE.values.length],
        ...(i % 6 === 0 ? { insuranceCompany: INSURANCE_COMPANY.values[i % 5], insurancePolicy: `POL-${100_000 + i * 37}` } : {}),
      },
      assignedTherapistId: d.therapist === 'lead' ? lead : d.therapist === 'colleague' ? colleague : null,
    });
    const p = await patients.create(callers.lead, body);
    result.created++;

    const author = callers[d.therapist ?? 'lead'];
    const end = typeof d.status === 'object' ? new Date(now.getTime() - d.status.monthsAgo * 30 * DAY_MS) : now;
    const notes = d.months === 0 ? notesFor(d).slice(0, 1) : notesFor(d);
    for (const [n, note] of notes.entries()) {
      // Spread between the start and the end (or today), the first on the first day.
      const at = new Date(start.getTime() + ((end.getTime() - start.getTime()) * n) / Math.max(1, notes.length - 1));
      await history.create(author, p.id, { title: note.title, body: note.body, date: isoDay(at), private: false });
      result.entries++;
    }
    if (d.status === 'paused') await patients.updateTreatment(callers.lead, p.id, updateTreatmentBody.parse({ status: 'paused' }));
    else if (d.status)
      await patients.updateTreatment(
        callers.lead,
        p.id,
        updateTreatmentBody.parse({ status: 'inactive', endDate: isoDay(end), endingReason: d.status.ended }),
      );
  }
  return result;
}

/** A confirmed therapist with the demo password, signed up through the real flow the first time. */
async function ensureTherapist(app: FastifyInstance, t: { email: string; firstName: string; lastName: string }): Promise<string> {
  const { auth, users } = app.services;
  let user = await users.findByEmail(t.email);
  if (!user) {
    const { userId } = await auth.signUp({ firstName: t.firstName, email: t.email, password: DEMO_PASSWORD });
    await users.updateProfile(userId, { lastName: t.lastName });
    user = (await users.findById(userId))!;
  }
  if (!user.emailVerifiedAt) await users.markVerified(user.id);
  return user.id;
}

function dni(n: number): string {
  const num = n % 100_000_000;
  return `${String(num).padStart(8, '0')}${LETTERS[num % 23]}`;
}

export type { DemoPatient };

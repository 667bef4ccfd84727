import { shiftDay, todayIn, type Workspace } from '@divan/core';
import { json, type TestApp } from './test-app';
import { addMember, createWorkspace, therapist, type Therapist } from './workspace-fixtures';

/**
 * A clinic for the sessions tests: the owner (administrator), two therapists with the clinic's
 * default Terapeuta role (Tere: 40 % commission, paid herself; Tomás: 25 € fixed, paid to the
 * workspace), a receptionist with Recepción, a patient of each therapist and a room.
 */
export type Clinic = Awaited<ReturnType<typeof clinic>>;

export const W = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}`;
/** A day a week ahead, in Madrid: not past, whatever day the tests run. */
export const nextWeek = (n = 0) => shiftDay(todayIn('Europe/Madrid'), 7 + n);

export async function clinic(t: TestApp, tag: string) {
  const owner = await therapist(t, `olga-${tag}@sesiones.test`, 'Olga');
  const ws = await createWorkspace(t, owner, `Clínica ${tag}`, 'clinic');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  const role = (name: string) => ws.roles.find((r) => r.name === name)!.id;
  const tere = await therapist(t, `tere-${tag}@sesiones.test`, 'Tere');
  const tomas = await therapist(t, `tomas-${tag}@sesiones.test`, 'Tomás');
  const rosa = await therapist(t, `rosa-${tag}@sesiones.test`, 'Rosa');
  const tereSeat = await addMember(t, owner, ws.id, tere, [role('Terapeuta')]);
  const tomasSeat = await addMember(t, owner, ws.id, tomas, [role('Terapeuta')]);
  await addMember(t, owner, ws.id, rosa, [role('Recepción')]);
  await setTerms(t, owner, ws, tereSeat.memberId, { commission: { type: 'percentage', value: 4000 }, paymentsReceiver: 'therapist' });
  await setTerms(t, owner, ws, tomasSeat.memberId, { commission: { type: 'fixed', value: 2500 }, paymentsReceiver: 'workspace' });
  const patient = async (firstName: string, therapistId: string, sessionPrice?: number) => {
    const res = await t.post(
      `${W(ws.id)}/patients`,
      { firstName, lastName: 'Prueba', assignedTherapistId: therapistId, treatment: { sessionPrice } },
      { token: owner.accessToken },
    );
    if (res.statusCode !== 201) throw new Error(`patient: ${res.body}`);
    return json<{ id: string }>(res).id;
  };
  const ana = await patient('Ana', tere.userId, 6000);
  const bruno = await patient('Bruno', tomas.userId, 5555);
  const room = await t.post(`${W(ws.id)}/locations`, { name: 'Sala 1' }, { token: owner.accessToken });
  if (room.statusCode !== 201) throw new Error(`location: ${room.body}`);
  return { ws, owner, tere, tomas, rosa, ana, bruno, patient, roomId: json<{ id: string }>(room).id };
}

async function setTerms(t: TestApp, owner: Therapist, ws: Workspace, memberId: string, body: object) {
  const res = await t.patch(`${W(ws.id)}/members/${memberId}`, body, { token: owner.accessToken });
  if (res.statusCode !== 200) throw new Error(`member terms: ${res.body}`);
}

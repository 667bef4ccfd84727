import type { HistoryEntry, Patient } from '@divan/core';
import { AUTH, json, type TestApp } from './test-app';
import { linkToken, loginCode, signIn } from './auth-flows';
import { multipart } from './images';
import { XLSX_TYPE, xlsx } from './spreadsheets';
import { createWorkspace, therapist } from './workspace-fixtures';

/**
 * One of every kind of secret the server keeps, made through the API: the mails of sign-up, sign-in
 * and password reset (their link tokens and code), a patient with medication, a history entry edited
 * once (a revision), a draft, a document and a pending spreadsheet import. `secrets` lists what must
 * never be found in clear at rest; `read()` reads each record back through the API.
 */
export async function seedClinicalRecords(t: TestApp, email = 'marta@consulta.test') {
  const owner = await therapist(t, email, 'Marta');
  const signupToken = linkToken((await t.app.services.mailer.list(email, 10)).find((m) => /verify-email/.test(m.text))!.text);
  await signIn(t, email);
  const code = loginCode((await t.lastMail(email)).text);
  await t.get(`${AUTH}/password/challenge?email=${encodeURIComponent(email)}`);
  const resetToken = linkToken((await t.lastMail(email)).text);

  const ws = await createWorkspace(t, owner, 'Consulta Secreta', 'freelance');
  const token = owner.accessToken;
  const W = `/api/v1/workspaces/${ws.id}`;
  const patient = json<Patient>(
    await t.post(
      `${W}/patients`,
      { firstName: 'Irene', lastName: 'Quintana', treatment: { motive: 'anxiety', medication: 'Sertralina 50 mg por las mañanas' } },
      { token },
    ),
  );
  const H = `${W}/patients/${patient.id}/history`;
  const entry = json<HistoryEntry>(
    await t.post(
      H,
      {
        title: 'Duelo por la pérdida del padre',
        date: '2026-11-20',
        body: '<p>Refiere insomnio desde la mudanza a Zaragoza</p>',
        private: false,
      },
      { token },
    ),
  );
  await t.put(
    `${H}/${entry.id}`,
    { title: 'Duelo por la pérdida del padre', date: '2026-11-20', body: '<p>Sueño fragmentado, pesadillas recurrentes</p>' },
    { token },
  );
  await t.put(
    `${H}/draft`,
    { title: 'Borrador', date: '2026-11-21', body: '<p>Ideas autolíticas pasivas, sin plan</p>', private: false },
    { token },
  );
  const doc = multipart('file', 'informe.txt', 'text/plain', Buffer.from('Informe psicológico: trastorno adaptativo mixto\n'));
  const docRes = await t.app.inject({
    method: 'POST',
    url: `${W}/patients/${patient.id}/documents`,
    payload: doc.payload,
    headers: { ...doc.headers, authorization: `Bearer ${token}` },
  });
  if (docRes.statusCode !== 201) throw new Error(`document: ${docRes.body}`);
  const sheet = multipart(
    'file',
    'pacientes.xlsx',
    XLSX_TYPE,
    await xlsx([
      ['Nombre', 'Apellidos', 'Notas'],
      ['Jacinto', 'Berrocal', 'Antecedentes de trastorno bipolar tipo II'],
    ]),
  );
  const up = await t.app.inject({
    method: 'POST',
    url: `${W}/patient-imports`,
    payload: sheet.payload,
    headers: { ...sheet.headers, authorization: `Bearer ${token}` },
  });
  if (up.statusCode !== 201) throw new Error(`import: ${up.body}`);

  // An outcome measure answered in session (issue 32): its answers and scores are clinical data.
  const measureAnswers = [3, 1, 2, 0, 3, 1, 2, 0, 2, 1, 3, 0, 2, 1, 3, 0, 2, 3, 1, 0, 3];
  const measure = await t.post(
    `${W}/patients/${patient.id}/measures/administer`,
    { measure: 'dass21', answers: measureAnswers },
    { token },
  );
  if (measure.statusCode !== 201) throw new Error(`measure: ${measure.body}`);

  const clinical = [
    'Sertralina 50 mg',
    'Duelo por la pérdida',
    'insomnio desde la mudanza',
    'pesadillas recurrentes',
    'Ideas autolíticas',
    'trastorno adaptativo mixto',
    'trastorno bipolar tipo II',
    // The answers as they would read in clear (a JSON array), with and without spaces.
    measureAnswers.join(','),
    measureAnswers.join(', '),
  ];
  return {
    owner,
    workspaceId: ws.id,
    patientId: patient.id,
    entryId: entry.id,
    documentId: json<{ id: string }>(docRes).id,
    importId: json<{ importId: string }>(up).importId,
    measureAnswers,
    secrets: { clinical, tokens: [signupToken, resetToken], code },
    /** Every record read back through the API (and the outbox through the mailer). */
    async read() {
      const get = async (url: string) => {
        const res = await t.get(url, { token });
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
        return res;
      };
      const p = json<Patient>(await get(`${W}/patients/${patient.id}`));
      const entries = json<HistoryEntry[]>(await get(H));
      const revisions = json<{ body: string }[]>(await get(`${H}/${entry.id}/revisions`));
      const drafts = json<{ body: string }[]>(await get(`${H}/drafts`));
      const document = (await get(`${W}/patients/${patient.id}/documents/${json<{ id: string }>(docRes).id}/download`)).body;
      const mail = await t.app.services.mailer.list(email, 10);
      const measures = json<{ answers: number[] | null }[]>(await get(`${W}/patients/${patient.id}/measures`));
      return { medication: p.treatment?.medication, entries, revisions, drafts, document, mail, measures };
    },
    /** Commits the pending import (its rows are read from the database) and waits for its end. */
    async commitImport() {
      const { importId, suggestedMapping } = json<{ importId: string; suggestedMapping: Record<string, number> }>(up);
      const commit = await t.post(`${W}/patient-imports/${importId}/commit`, { mapping: suggestedMapping }, { token });
      if (commit.statusCode !== 202) throw new Error(`commit: ${commit.body}`);
      for (;;) {
        const s = json<{ status: string; created: number }>(await t.get(`${W}/patient-imports/${importId}`, { token }));
        if (s.status === 'done' || s.status === 'failed') return s;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { divanTax, SUBJECTS, type Action, type Subject } from '@divan/core';
import type { Access } from '../../platform/auth/access';
import { createTestApp, type TestApp } from '../../test/test-app';
import { addMember, createRole, createWorkspace, insertRole, therapist, type Therapist } from '../../test/workspace-fixtures';
import { CONSENT_TEMPLATE_SAMPLE, records } from '../../test/workspace-records';
import { connectedPatient, type PatientSession } from '../patient-accounts/patient-accounts.testkit';

/**
 * Every workspace route × {anonymous, member of another workspace, member without the permission,
 * member with it, owner}, on real records: no leak, no 500, and an allowed caller never gets 404 for
 * an id that exists. Routes are read from the app, so the matrix grows with every feature that adds
 * one; a path id of a kind without a record factory below fails the matrix until one is added.
 */
let t: TestApp;
let owner: Therapist;
let outsider: Therapist;
let workspaceId: string;
const withPermission = new Map<string, Therapist>();
let bare: Therapist;
let admin: Therapist;
let plainRole: string;

type Route = { method: string; url: string; access: Access };
let routes: Route[];
const need = (r: Route) => (r.access as { workspace: 'member' | 'owner' | [string, string] }).workspace;
const keyOf = (n: ReturnType<typeof need>) => (Array.isArray(n) ? n.join(':') : n);

/**
 * How to make a real record for each kind of path id, given the ids before it in the path. `caller`
 * is who will call, when allowed to (imports belong to their uploader, tasks to their owner); otherwise the owner.
 */
type Made = { params: Record<string, string>; caller: Therapist };
const RECORDS: Record<string, (m: Made) => Promise<string>> = {
  patientId: () => records.patient(t, owner.accessToken, workspaceId),
  // Edited once, so its revisions route has something to list.
  entryId: ({ params }) => records.revisedEntry(t, owner.accessToken, workspaceId, params.patientId!),
  documentId: ({ params }) => records.document(t, owner.accessToken, workspaceId, params.patientId!),
  importId: ({ caller }) => records.patientImport(t, caller.accessToken, workspaceId),
  taskId: ({ caller }) => records.task(t, caller.accessToken, workspaceId),
  roleId: () => records.role(t, workspaceId),
  invitationId: () => records.invitation(t, owner.accessToken, workspaceId, plainRole),
  memberId: () => records.member(t, owner.accessToken, workspaceId, plainRole),
  sessionId: () => records.session(t, owner.accessToken, workspaceId),
  locationId: () => records.location(t, owner.accessToken, workspaceId),
  invoiceId: () => records.invoice(t, owner.accessToken, workspaceId),
  batchId: () => records.invoiceBatch(t, owner.accessToken, workspaceId),
  packId: ({ params }) => records.pack(t, owner.accessToken, workspaceId, params.patientId!),
  templateId: () => records.consentTemplate(t, owner.accessToken, workspaceId),
  // A Checkout of Diván's plans, already applied (the matrix's workspace is on Team, which is not sold by
  // Checkout; the billing tests start real ones).
  // A gift bought by the matrix's workspace, its Checkout not yet paid.
  giftCheckoutId: async ({ caller }) => {
    const id = `cs_test_gift${crypto.randomUUID().replaceAll('-', '')}`;
    await t.app.services.database.db.execute(
      sql`insert into gift_codes (id, code_hash, checkout_session_id, buyer_workspace_id, buyer_user_id, months, subtotal, vat, total)
          values (${crypto.randomUUID()}, ${id}, ${id}, ${workspaceId}, ${caller.userId}, 1, 2900, 609, 3509)`,
    );
    return id;
  },
  checkoutId: async () => {
    const id = `cs_test_matrix${crypto.randomUUID().replaceAll('-', '')}`;
    await t.app.services.database.db.execute(
      sql`insert into billing_checkouts (session_id, workspace_id, plan_id, interval, quantity, completed_at)
          values (${id}, ${workspaceId}, 'advance', 'month', 1, now())`,
    );
    return id;
  },
  // One of Diván's invoices to the matrix's workspace (issued as a paid charge's would be).
  divanInvoiceId: async () => {
    const operator = t.app.services.operatorInvoicing;
    const op = await operator.ensureOperator();
    const db = t.app.services.database.db;
    const row = await db.transaction((tx) =>
      operator.issueIn(tx, op, {
        buyer: {
          name: 'Matriz',
          taxId: '12345678Z',
          line1: 'Calle 1',
          city: 'Madrid',
          postalCode: '28001',
          countryCode: 'ES',
          countryName: 'España',
          email: null,
        },
        lines: [{ description: 'Premium (mensual)', amountCents: 2900 }],
        tax: divanTax({ country: 'ES' }),
        paidAt: new Date(),
      }),
    );
    await db.execute(
      sql`insert into billing_invoices (provider_invoice_id, workspace_id, invoice_id, number, issue_date, description, subtotal, vat, total, vat_rate)
          values (${`in_matrix${crypto.randomUUID().replaceAll('-', '')}`}, ${workspaceId}, ${row.id}, ${row.number}, ${row.issueDate}, 'Premium', ${row.subtotal}, ${row.vat}, ${row.total}, 21)`,
    );
    return row.id;
  },
  // A ready-made consent template the therapist does not sign: copied without a signature.
  key: async () => 'proteccion-datos',
  // Sent by the owner and signed, so its PDF downloads.
  consentId: () => records.consent(t, owner.accessToken, workspaceId),
  // A PHQ-9 given in session with item 9 above 0: completed (cancel is a 409) and flagged (review succeeds).
  administrationId: async ({ params }) => {
    const res = await t.post(
      `/api/v1/workspaces/${workspaceId}/patients/${params.patientId}/measures/administer`,
      { measure: 'phq9', answers: [0, 0, 0, 0, 0, 0, 0, 0, 1] },
      { token: owner.accessToken },
    );
    if (res.statusCode !== 201) throw new Error(`administer: ${res.body}`);
    return (res.json() as { id: string }).id;
  },
  // A measure schedule tied to sessions, active (pause, resume and stop succeed).
  scheduleId: async ({ params }) => {
    const id = crypto.randomUUID();
    await t.app.services.database.db.execute(
      sql`insert into measure_schedules (id, workspace_id, patient_id, therapist_id, measure, cadence)
          values (${id}, ${workspaceId}, ${params.patientId!}, ${owner.userId}, 'phq9', 'each_session')`,
    );
    return id;
  },
  serviceId: () => records.bookingService(t, owner.accessToken, workspaceId),
  overrideId: () => records.availabilityOverride(t, owner.accessToken, workspaceId),
  // A conversation is a patient file's chat.
  patientFileId: () => records.patient(t, owner.accessToken, workspaceId),
  // A published video of the training library (hosted on Vimeo: no file to transcode).
  videoId: async () => {
    const [row] = await t.rows<{ id: string }>(
      sql`insert into learning_videos (title, description, colour, vimeo_url, categories, price_cents, preview_seconds, status, published_at)
          values (${`Vídeo ${Math.random()}`}, 'Para la matriz', '#2F6F5E', 'https://vimeo.com/76979871', '{BOOK_COMMENTARY}', 2000, 0, 'published', now())
          returning id`,
    );
    return row!.id;
  },
};
/**
 * A valid body for routes that would refuse `{}`, so their allowed case reaches the record (and must
 * then succeed). Other routes get `{}`: past the guard, a 400 is fine.
 */
const entry = { title: 'Sesión', date: '2026-01-20', body: '<p>Evolución</p>', private: false };
/** Query strings of the GET routes that need one to answer (the statistics' period). */
const PERIOD = 'from=2026-10-01&to=2026-10-31';
const SAMPLE_QUERIES: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries({ sessions: 'scheduled', patients: 'added', treatments: 'ended', billing: 'issued' }).flatMap(([tab, card]) => [
      [`GET /api/v1/workspaces/:workspaceId/analytics/${tab}`, PERIOD],
      [`GET /api/v1/workspaces/:workspaceId/analytics/${tab}/rows`, `${PERIOD}&card=${card}`],
      [`GET /api/v1/workspaces/:workspaceId/analytics/${tab}/export`, PERIOD],
    ]),
  ),
  // The caller's own Google busy times: a range is required.
  'GET /api/v1/workspaces/:workspaceId/google-calendar/busy': 'from=2026-10-01T00:00:00Z&to=2026-10-31T00:00:00Z',
};

const SAMPLE_BODIES: Record<string, unknown> = {
  'PUT /api/v1/workspaces/:workspaceId/patients/:patientId/history/:entryId': entry,
  'POST /api/v1/workspaces/:workspaceId/patients/:patientId/history': entry,
  'PUT /api/v1/workspaces/:workspaceId/patients/:patientId/assignment': { therapistId: null },
  'PUT /api/v1/workspaces/:workspaceId/patients/:patientId/documents/:documentId/sharing': { shared: true },
  // The role made by RECORDS.roleId, unchanged: no permission is granted, so the editor needs none.
  'PUT /api/v1/workspaces/:workspaceId/roles/:roleId': { name: 'Rol editado', permissions: [{ action: 'read', subject: 'sessions' }] },
  'POST /api/v1/workspaces/:workspaceId/patient-imports/:importId/commit': { mapping: { firstName: 0 } },
  'POST /api/v1/workspaces/:workspaceId/patients': { firstName: 'Nueva' },
  'POST /api/v1/workspaces/:workspaceId/sessions/:sessionId/cancel': { reason: 'patient' },
  'POST /api/v1/workspaces/:workspaceId/sessions/:sessionId/payment': { paymentType: 'cash' },
  'PATCH /api/v1/workspaces/:workspaceId/sessions/:sessionId': { invoiced: true },
  'POST /api/v1/workspaces/:workspaceId/sessions/:sessionId/note': { title: 'Nota de la sesión', body: '<p>Evolución</p>' },
  'POST /api/v1/workspaces/:workspaceId/locations': { name: 'Sala de espera' },
  'PATCH /api/v1/workspaces/:workspaceId/locations/:locationId': { name: 'Sala renombrada' },
  'POST /api/v1/workspaces/:workspaceId/tasks': { title: 'Llamar a la mutua' },
  'PATCH /api/v1/workspaces/:workspaceId/tasks/:taskId': { done: true },
  'PATCH /api/v1/workspaces/:workspaceId/invoices/:invoiceId': { footer: 'Pago por transferencia' },
  'POST /api/v1/workspaces/:workspaceId/consent-templates': CONSENT_TEMPLATE_SAMPLE,
  // The template made by RECORDS.templateId, unchanged: every allowed caller saves onto version 1.
  'PUT /api/v1/workspaces/:workspaceId/consent-templates/:templateId': { ...CONSENT_TEMPLATE_SAMPLE, baseVersion: 1 },
  'POST /api/v1/workspaces/:workspaceId/consent-templates/from-ready-made/:key': {},
  'PUT /api/v1/workspaces/:workspaceId/booking-embed': { allowedOrigins: ['https://www.consulta-matriz.es'] },
  'POST /api/v1/workspaces/:workspaceId/chats/:patientFileId/messages': { body: 'Hola, ¿cómo estás?' },
  'POST /api/v1/workspaces/:workspaceId/patients/:patientId/connect': { email: 'paciente@matrix.test' },
};

/** Valid bodies of the patient's own routes, so the file's check is what refuses them. */
const SAMPLE_PATIENT_BODIES: Record<string, unknown> = {
  'POST /api/v1/patient/files/:patientFileId/chat/messages': { body: 'Hola' },
  'POST /api/v1/patient/files/:patientFileId/chat/read': { upTo: '00000000-0000-4000-8000-000000000000' },
  'POST /api/v1/patient/files/:patientFileId/sessions/:sessionId/move': { startsAt: '2026-12-01T09:00:00.000Z' },
  'PUT /api/v1/patient/files/:patientFileId/card/auto-charge': { enabled: true },
};
const SAMPLE_PATIENT_QUERIES: Record<string, string> = {
  'GET /api/v1/patient/files/:patientFileId/sessions/:sessionId/slots': '?month=2026-12',
};

const label = (r: Route) => `${r.method} ${r.url}`;
/** `fn` over `items`, eight at a time (results in order): calls that only read, or touch nothing another makes. */
async function inBatches<T, R>(items: T[], fn: (item: T, index: number) => Promise<R>, size = 8): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map((x, j) => fn(x, i + j)))));
  return out;
}
/** Calls that succeed once per record (a session has one note): each allowed caller gets a fresh record. */
const ONCE_PER_RECORD = new Set(['POST /api/v1/workspaces/:workspaceId/sessions/:sessionId/note']);
const idsOf = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter((p) => p !== 'workspaceId');
const missingFactories = () => [...new Set(routes.flatMap((r) => idsOf(r.url)))].filter((p) => !RECORDS[p]);

/**
 * Shared records for reading and editing; a fresh one for an allowed DELETE, so no call removes what
 * a later one needs. Ids resolve in path order: a document is made on the patient of its path.
 */
const shared = new Map<string, Promise<string>>();
async function pathFor(r: Route, caller: Therapist, allowed: boolean, id = workspaceId) {
  const params: Record<string, string> = {};
  const ids = idsOf(r.url);
  for (const [i, name] of ids.entries()) {
    const make = RECORDS[name];
    if (!make) throw new Error(`No record factory for :${name} (${r.method} ${r.url}): add one to RECORDS in access-matrix.test.ts`);
    const maker = (name === 'importId' || name === 'taskId') && allowed ? caller : owner;
    const fresh = allowed && (r.method === 'DELETE' || ONCE_PER_RECORD.has(label(r))) && i === ids.length - 1;
    const key = `${name}|${Object.values(params).join('/')}|${maker.email}`;
    if (fresh) params[name] = await make({ params, caller: maker });
    else {
      if (!shared.has(key)) shared.set(key, make({ params: { ...params }, caller: maker }));
      params[name] = await shared.get(key)!;
    }
  }
  return r.url.replace(':workspaceId', id).replace(/:(\w+)/g, (_, name: string) => params[name]!);
}

beforeAll(async () => {
  t = await createTestApp();
  routes = t.app.declaredRoutes().filter((r) => typeof r.access === 'object' && r.method !== 'HEAD');
  owner = await therapist(t, 'owner@matrix.test', 'Olga');
  outsider = await therapist(t, 'outsider@matrix.test', 'Óscar');
  const ws = await createWorkspace(t, owner, 'Clínica Matriz', 'clinic');
  workspaceId = ws.id;
  await t.app.services.workspaces.setPlan(workspaceId, { id: 'team', seats: 80 });
  // A member with only a harmless permission: for every route needing something else, "without".
  bare = await therapist(t, 'bare@matrix.test', 'Berta');
  const bareRole = await createRole(t, owner, workspaceId, 'Solo perfil', [{ action: 'read', subject: 'workspace_profile' }]);
  plainRole = bareRole.id;
  await addMember(t, owner, workspaceId, bare, [bareRole.id]);
  admin = await therapist(t, 'admin@matrix.test', 'Adela');
  await addMember(t, owner, workspaceId, admin, [ws.roles.find((r) => r.name === 'Administrador')!.id]);
  // One member per distinct permission, holding that permission and the reading it needs, as the role
  // editor ticks it: "Ver" on the same subject, and a patient's file for what hangs from a patient.
  // Made side by side: each is its own sign-up, role and invitation.
  const needs = [...new Set(routes.map((r) => keyOf(need(r))))].filter((n) => n !== 'member' && n !== 'owner');
  const members = await inBatches(needs, async (n, i) => {
    const subject = n.split(':')[1] as Subject;
    // And what its paths name: a patient's file for a :patientId, the session for a :sessionId (a
    // session's note is written by who may see the session and write the patient's history).
    const urls = routes.filter((r) => keyOf(need(r)) === n).map((r) => r.url);
    const reads = new Set([
      n,
      ...(SUBJECTS[subject].actions.includes('read') ? [`read:${subject}`] : []),
      // A sent consent hangs from its patient too: who cannot see the patient does not see it.
      ...(subject.startsWith('patient_') || subject === 'sent_consents' || urls.some((u) => u.includes(':patientId'))
        ? ['read:patient_files']
        : []),
      ...(urls.some((u) => u.includes(':sessionId')) ? ['read:sessions'] : []),
    ]);
    const permissions = [...reads].map((k) => ({ action: k.split(':')[0] as Action, subject: k.split(':')[1] as Subject }));
    const m = await therapist(t, `p${i}@matrix.test`, `P${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`); // names are letters only
    const role = await insertRole(t, workspaceId, `Rol ${n}`, permissions);
    await addMember(t, owner, workspaceId, m, [role.id]);
    return m;
  });
  needs.forEach((n, i) => withPermission.set(n, members[i]!));
  // The shared records every refused call names, made once, one after another, in the routes' order
  // (as the first test made them before): the refusals below then only read, and run side by side.
  if (missingFactories().length === 0) for (const r of routes) await pathFor(r, owner, false);
}, 300_000);
afterAll(() => t?.close());

const call = async (r: Route, caller?: Therapist, opts: { allowed?: boolean; workspace?: string } = {}) => {
  const url = await pathFor(r, caller ?? owner, opts.allowed ?? false, opts.workspace);
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
  return t.app.inject({
    method: r.method as 'GET',
    url: SAMPLE_QUERIES[label(r)] ? `${url}?${SAMPLE_QUERIES[label(r)]}` : url,
    headers: caller ? { authorization: `Bearer ${caller.accessToken}` } : {},
    ...(hasBody ? { payload: (SAMPLE_BODIES[label(r)] ?? {}) as object } : {}),
  });
};
const codeOf = (res: { body: string }) => {
  try {
    return (JSON.parse(res.body) as { code?: string }).code;
  } catch {
    return undefined;
  }
};

describe('authorization matrix over every workspace route', () => {
  it('covers the workspace routes, and can make a real record for every id in their paths', () => {
    expect(routes.length).toBeGreaterThanOrEqual(14);
    expect(missingFactories(), 'path ids without a record factory: add one to RECORDS in access-matrix.test.ts').toEqual([]);
  });

  it('anonymous callers get invalid_access_token', async () => {
    await inBatches(routes, async (r) => expect([label(r), codeOf(await call(r))]).toEqual([label(r), 'invalid_access_token']));
  });

  it('a member of another workspace gets 404, the same as for a workspace that does not exist', async () => {
    await inBatches(routes, async (r) => {
      const res = await call(r, outsider);
      expect([label(r), res.statusCode, codeOf(res)]).toEqual([label(r), 404, 'workspace_not_found']);
      const ghost = await call(r, outsider, { workspace: crypto.randomUUID() });
      expect(ghost.body).toBe(res.body);
    });
  });

  it('a member without the permission is refused with 403, on records that exist', async () => {
    await inBatches(routes, async (r) => {
      const n = need(r);
      if (n === 'member' || keyOf(n) === 'read:workspace_profile') return;
      const res = await call(r, bare);
      const expected = n === 'owner' ? 'workspace_not_owner' : 'access_denied';
      expect([label(r), res.statusCode, codeOf(res)]).toEqual([label(r), 403, expected]);
    });
  });

  it('a member with the permission, and the owner, get past the guard to the record: never a 404, never a 500', async () => {
    const guardCodes = ['invalid_access_token', 'workspace_not_found', 'access_denied', 'workspace_not_owner'];
    for (const r of routes) {
      const n = need(r);
      const callers = [owner, n === 'member' ? bare : n === 'owner' ? undefined : withPermission.get(keyOf(n))].filter(
        Boolean,
      ) as Therapist[];
      for (const who of callers) {
        const res = await call(r, who, { allowed: true });
        const what = `${label(r)} as ${who.email}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        expect(res.statusCode, what).not.toBe(404);
        expect(guardCodes, what).not.toContain(codeOf(res));
        if (r.method === 'GET' || r.method === 'DELETE' || SAMPLE_BODIES[label(r)]) expect(res.statusCode, what).toBeLessThan(300);
      }
    }
    // An administrator who is not the owner still may not do the owner's things.
    for (const r of routes.filter((x) => need(x) === 'owner')) expect(codeOf(await call(r, admin))).toBe('workspace_not_owner');
  });
});

describe('the patient actor (realm patients)', () => {
  let patient: PatientSession;
  const all = () => t.app.declaredRoutes().filter((r) => r.method !== 'HEAD');
  const asPatient = { accessToken: '' } as Therapist;
  beforeAll(async () => {
    const patientId = await records.patient(t, owner.accessToken, workspaceId);
    patient = await connectedPatient(t, owner.accessToken, workspaceId, patientId, 'conectado@matrix.test');
    asPatient.accessToken = patient.accessToken;
  });

  it('a patient connected to a file of the workspace reaches nothing of the therapists’ API', async () => {
    await inBatches(routes, async (r) => expect([label(r), codeOf(await call(r, asPatient))]).toEqual([label(r), 'invalid_access_token']));
    await inBatches(
      all().filter((x) => x.access === 'user'),
      async (r) => {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: r.url.replace(/:(\w+)/g, crypto.randomUUID()),
          headers: { authorization: `Bearer ${patient.accessToken}` },
        });
        expect([label(r), res.statusCode, codeOf(res)]).toEqual([label(r), 401, 'invalid_access_token']);
      },
    );
  });

  it('every patient route refuses a therapist’s token and an anonymous caller', async () => {
    const patientRoutes = all().filter((r) => r.access === 'patient');
    expect(patientRoutes.length).toBeGreaterThanOrEqual(3);
    await inBatches(patientRoutes, async (r) => {
      for (const headers of [{ authorization: `Bearer ${owner.accessToken}` }, {}]) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: r.url.replace(/:(\w+)/g, crypto.randomUUID()),
          headers,
          ...(r.method === 'POST' ? { payload: {} } : {}),
        });
        expect([label(r), res.statusCode, codeOf(res)]).toEqual([label(r), 401, 'invalid_access_token']);
      }
    });
  });

  it('every patient route on a file reaches only the patient’s own: a file of the workspace not connected to them is 404', async () => {
    const other = await records.patient(t, owner.accessToken, workspaceId);
    const onFiles = all().filter((r) => r.access === 'patient' && r.url.includes(':patientFileId'));
    expect(onFiles.length).toBeGreaterThanOrEqual(8);
    await inBatches(onFiles, async (r) => {
      const url = r.url.replace(':patientFileId', other).replace(/:(\w+)/g, crypto.randomUUID()) + (SAMPLE_PATIENT_QUERIES[label(r)] ?? '');
      const res = await t.app.inject({
        method: r.method as 'GET',
        url,
        headers: { authorization: `Bearer ${patient.accessToken}` },
        ...(SAMPLE_PATIENT_BODIES[label(r)]
          ? { payload: SAMPLE_PATIENT_BODIES[label(r)] as object }
          : r.method === 'POST'
            ? { payload: {} }
            : {}),
      });
      expect([label(r), res.statusCode, codeOf(res)]).toEqual([label(r), 404, 'patient_file_not_found']);
    });
  });
});

// The chat bench's practice, made through the real API of one server: a therapist (sign-up → confirm, which
// makes their workspace) and N patients, each invited to connect and connected from the mailed link with
// the mailed code, as a patient does it (spec §2 patients "connect", decision 0023). Nothing is written in
// SQL: the connect flow is what decides which socket hears which file.
import { signUpConfirmed, type Session } from './dataset';
import { inLetters, sleep } from './util';

const DEVICE = {
  appVersion: '1.0.0',
  deviceManufacturer: 'unknown',
  deviceModel: 'unknown',
  platformType: 'web',
  platformVersion: '1.0.0',
};

export type ConnectedPatient = { patientFileId: string; email: string; accessToken: string };
export type ChatPractice = { workspaceId: string; therapist: Session; patients: ConnectedPatient[] };

async function call<T>(base: string, method: string, path: string, o: { token?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The newest mail to `to` whose text matches `re` (the dev outbox, newest first); polled a bounded number of times. */
async function fromMail(base: string, to: string, re: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const mails = await call<{ text: string }[]>(base, 'GET', `/dev/mail/messages?to=${encodeURIComponent(to)}`);
    const m = mails[0] && re.exec(mails[0].text);
    if (m) return m[1]!;
    await sleep(50);
  }
  throw new Error(`no mail to ${to} matching ${re}`);
}

async function connectOne(base: string, workspaceId: string, token: string, i: number, tag: string): Promise<ConnectedPatient> {
  const email = `paciente${i}.${tag}@example.com`;
  const file = await call<{ id: string }>(base, 'POST', `/api/v1/workspaces/${workspaceId}/patients`, {
    token,
    body: { firstName: `Paciente ${inLetters(i)}`, lastName: 'Chat', email },
  });
  await call(base, 'POST', `/api/v1/workspaces/${workspaceId}/patients/${file.id}/connect`, { token, body: { email } });
  const link = await fromMail(base, email, /\/p\/connect\/([A-Za-z0-9_-]+)/);
  const sent = await call<{ challenge: string }>(base, 'POST', `/api/v1/public/patient-connect/${link}/code`);
  const code = await fromMail(base, email, /\b(\d{6})\b/);
  const session = await call<{ accessToken: string }>(base, 'POST', `/api/v1/public/patient-connect/${link}`, {
    body: { challenge: sent.challenge, code, ...DEVICE },
  });
  return { patientFileId: file.id, email, accessToken: session.accessToken };
}

/** A therapist and `count` connected patients, `concurrency` connect flows at a time. */
export async function seedChatPractice(base: string, count: number, concurrency: number, tag: string): Promise<ChatPractice> {
  const therapist = await signUpConfirmed(base, `terapeuta.${tag}@example.com`, 'Nuria');
  const [workspace] = await call<{ id: string }[]>(base, 'GET', '/api/v1/workspaces', { token: therapist.accessToken });
  const patients: ConnectedPatient[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      patients[i] = await connectOne(base, workspace!.id, therapist.accessToken, i, tag);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { workspaceId: workspace!.id, therapist, patients };
}

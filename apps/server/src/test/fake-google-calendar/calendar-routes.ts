import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { MEET_LINK, type FakeCalendar, type FakeEvent, type FakeGoogleStore } from './store';

const apiError = (reply: FastifyReply, status: number, reason: string) =>
  reply.code(status).send({ error: { code: status, message: reason, errors: [{ reason, message: reason }] } });

type P = { cal: string; id?: string };

/** What a client gets back for an event (no `seq`). */
const out = ({ seq: _seq, ...e }: FakeEvent) => ({ kind: 'calendar#event', ...e });

/**
 * Calendar API v3 as Diván calls it: calendars.insert, calendarList.list, events insert (client ids,
 * 409 when taken), patch, delete (cancelled, kept for sync), list (full from timeMin, or changes since a
 * sync token; 410 for a token a test expired), watch and channels.stop; conferenceData createRequest
 * with conferenceDataVersion=1 answers a Meet link. Bearer access tokens checked (401).
 */
export function calendarRoutes(app: FastifyInstance, store: FakeGoogleStore) {
  const authed = (req: FastifyRequest, reply: FastifyReply) => {
    const t = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!store.validAccess(t)) {
      void apiError(reply, 401, 'authError');
      return false;
    }
    return true;
  };
  const calOf = (req: FastifyRequest, reply: FastifyReply): FakeCalendar | undefined => {
    const cal = store.calendars.get((req.params as P).cal);
    if (!cal) void apiError(reply, 404, 'notFound');
    return cal;
  };
  const withMeet = (e: Record<string, unknown>, query: Record<string, string>) => {
    const cd = e.conferenceData as { createRequest?: unknown } | null | undefined;
    if (cd === null) {
      delete e.conferenceData;
      delete e.hangoutLink;
    } else if (cd?.createRequest && query.conferenceDataVersion === '1') {
      e.hangoutLink = MEET_LINK;
      e.conferenceData = { conferenceId: 'xxx-yyyy-zzz', entryPoints: [{ entryPointType: 'video', uri: MEET_LINK }] };
    } else if (cd?.createRequest) delete e.conferenceData;
    return e;
  };

  app.post('/calendar/v3/calendars', async (req, reply) => {
    if (!authed(req, reply)) return;
    store.count('calendars.insert');
    const body = req.body as { summary?: string };
    const cal = store.newCalendar(body.summary ?? '');
    return { kind: 'calendar#calendar', id: cal.id, summary: cal.summary };
  });

  app.get('/calendar/v3/users/me/calendarList', async (req, reply) => {
    if (!authed(req, reply)) return;
    if (store.switches.calendarsOffline) return apiError(reply, 503, 'backendError');
    return {
      items: [...store.calendars.values()].map((c) => ({
        id: c.id,
        summary: c.summary,
        primary: c.primary || undefined,
        backgroundColor: '#039be5',
      })),
    };
  });

  app.post('/calendar/v3/calendars/:cal/events', async (req, reply) => {
    if (!authed(req, reply)) return;
    const cal = calOf(req, reply);
    if (!cal) return;
    store.count('events.insert');
    const body = withMeet({ ...(req.body as Record<string, unknown>) }, req.query as Record<string, string>);
    const id = (body.id as string | undefined) ?? randomBytes(10).toString('hex');
    if (cal.events.has(id)) return apiError(reply, 409, 'duplicate');
    return out(store.put(cal, { ...(body as object), id, status: 'confirmed' } as FakeEvent));
  });

  app.patch('/calendar/v3/calendars/:cal/events/:id', async (req, reply) => {
    if (!authed(req, reply)) return;
    const cal = calOf(req, reply);
    if (!cal) return;
    store.count('events.patch');
    const e = cal.events.get((req.params as P).id!);
    if (!e) return apiError(reply, 404, 'notFound');
    const body = withMeet({ ...e, ...(req.body as Record<string, unknown>) }, req.query as Record<string, string>);
    // A patch without a new conference request keeps the one the event has.
    if (!(req.body as Record<string, unknown>).conferenceData && e.hangoutLink)
      Object.assign(body, { hangoutLink: e.hangoutLink, conferenceData: e.conferenceData });
    return out(store.put(cal, body as FakeEvent));
  });

  app.delete('/calendar/v3/calendars/:cal/events/:id', async (req, reply) => {
    if (!authed(req, reply)) return;
    const cal = calOf(req, reply);
    if (!cal) return;
    store.count('events.delete');
    const e = cal.events.get((req.params as P).id!);
    if (!e) return apiError(reply, 404, 'notFound');
    if (e.status === 'cancelled') return apiError(reply, 410, 'deleted');
    store.put(cal, { ...e, status: 'cancelled' });
    return reply.code(204).send();
  });

  app.get('/calendar/v3/calendars/:cal/events', async (req, reply) => {
    if (!authed(req, reply)) return;
    const cal = calOf(req, reply);
    if (!cal) return;
    store.count('events.list');
    const q = req.query as Record<string, string>;
    const size = Math.min(Number(q.maxResults ?? 250), store.switches.pageSize);
    // A page token carries the listing's own basis: its sync point and offset.
    const [basis, offsetText] = q.pageToken ? q.pageToken.split('|') : [q.syncToken ? `s${q.syncToken}` : `t${q.timeMin ?? ''}`, '0'];
    const offset = Number(offsetText);
    let items: FakeEvent[];
    if (basis!.startsWith('s')) {
      const tokenText = basis!.slice(1);
      if (store.switches.goneTokens.has(tokenText) || store.switches.goneTokens.has('*')) {
        store.switches.goneTokens.delete(tokenText);
        store.switches.goneTokens.delete('*');
        return apiError(reply, 410, 'fullSyncRequired');
      }
      const since = Number(tokenText.split(':')[1]);
      items = [...cal.events.values()].filter((e) => e.seq > since);
    } else {
      const timeMin = basis!.slice(1);
      items = [...cal.events.values()].filter(
        (e) => e.status !== 'cancelled' && (!timeMin || !e.end?.dateTime || new Date(e.end.dateTime) >= new Date(timeMin)),
      );
    }
    items.sort((a, b) => a.seq - b.seq);
    const page = items.slice(offset, offset + size);
    const more = offset + size < items.length;
    store.count(q.syncToken || basis!.startsWith('s') ? 'events.list.incremental' : 'events.list.full');
    return {
      kind: 'calendar#events',
      items: page.map(out),
      ...(more ? { nextPageToken: `${basis}|${offset + size}` } : { nextSyncToken: `${cal.id}:${store.currentSeq}` }),
    };
  });

  app.post('/calendar/v3/calendars/:cal/events/watch', async (req, reply) => {
    if (!authed(req, reply)) return;
    const cal = calOf(req, reply);
    if (!cal) return;
    store.count('events.watch');
    const body = req.body as { id: string; token?: string; address: string; type: string; params?: { ttl?: string } };
    if (body.type !== 'web_hook' || !body.address || !body.id) return apiError(reply, 400, 'invalid');
    const ch = store.watch(cal.id, body);
    return {
      kind: 'api#channel',
      id: ch.id,
      resourceId: ch.resourceId,
      resourceUri: `events/${cal.id}`,
      expiration: String(ch.expiration),
    };
  });

  app.post('/calendar/v3/channels/stop', async (req, reply) => {
    if (!authed(req, reply)) return;
    store.count('channels.stop');
    const body = req.body as { id: string; resourceId: string };
    const ch = store.channels.find((c) => c.id === body.id && c.resourceId === body.resourceId && !c.stopped);
    if (!ch) return apiError(reply, 404, 'notFound');
    ch.stopped = true;
    return reply.code(204).send();
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_TIME_ZONE, formatLocal } from '@divan/core';
import { loopbackOnly } from '../http/loopback';
import { escapeHtml } from './layout';
import type { Mailer } from './mailer';

/** The outbox, readable outside production: `/dev/mail` for people, `/dev/mail/messages` for tests. */
export async function devMailRoutes(app: FastifyInstance, { mailer }: { mailer: Mailer }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The outbox holds login codes and reset links: only a person at this machine may read it.
  loopbackOnly(app);
  const common = { config: { access: 'public' as const }, schema: { hide: true, querystring: z.object({ to: z.string().optional() }) } };
  r.get('/dev/mail/messages', common, async (req) => mailer.list(req.query.to));
  r.get('/dev/mail', common, async (req, reply) => {
    const mails = await mailer.list(req.query.to);
    const items = mails
      .map(
        (m) =>
          `<article><header><strong>${escapeHtml(m.subject)}</strong><br><small>Para ${escapeHtml(m.to)} · ${formatLocal(new Date(m.createdAt), DEFAULT_TIME_ZONE)} · ${STATUS[m.status]}${m.error ? ` (${escapeHtml(m.error)})` : ''}</small></header><div class="body">${m.html}</div></article>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Bandeja de salida · Diván</title><meta name="viewport" content="width=device-width,initial-scale=1"><style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f2a2a;background:#faf8f5}article{background:#fff;border:1px solid #e4ded6;border-radius:12px;padding:1rem 1.25rem;margin:1rem 0}.body{margin-top:.75rem;border-top:1px solid #eee;padding-top:.75rem}</style></head><body><h1>Bandeja de salida</h1><p>Correos que Diván ha escrito en este entorno, con su estado (sin SMTP configurado, se quedan aquí).</p>${items || '<p>No hay correos todavía.</p>'}</body></html>`;
  });
}

const STATUS = { queued: 'en cola', sending: 'enviándose', sent: 'enviado', bounced: 'rechazado', failed: 'no enviado' } as const;

import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { CheckoutView, Redirect } from './sandbox-hosted';
import type { SandboxGateway } from './sandbox-gateway';
import { checkoutPage, dashboardPage, errorPage, notFoundPage, onboardingPage } from './sandbox-pages.html';
import { portalPage, type PortalView } from './sandbox-portal';

type Form = Record<string, unknown> | undefined;
const field = (body: unknown, name: string): string | undefined => {
  const v = (body as Form)?.[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * The sandbox's hosted pages (what Stripe hosts: Connect onboarding, Checkout, the Express dashboard),
 * public: the id in the path is the token (24 random characters). Plain HTML forms posting back here,
 * so the CSP needs nothing more; a form body is parsed only inside this plugin. Unknown ids, unknown
 * paths under /sandbox/stripe/ and failures answer a Spanish page, never JSON.
 */
export async function sandboxPagesRoutes(app: FastifyInstance, { sandbox }: { sandbox: SandboxGateway }) {
  const hosted = sandbox.hosted;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? 400 : 500;
    if (status === 500) req.log.error({ err }, 'sandbox page failed');
    return html(reply, errorPage(status), status);
  });
  const opts = { config: { access: 'public' as const }, schema: { hide: true } };

  app.get<{ Params: { linkId: string } }>('/sandbox/stripe/connect/:linkId', opts, async (req, reply) => {
    const view = await hosted.openOnboarding(req.params.linkId);
    if (!view) return html(reply, notFoundPage(), 404);
    if (view.kind === 'redirect') return redirect(reply, view);
    return html(reply, onboardingPage(view));
  });
  app.post<{ Params: { linkId: string } }>('/sandbox/stripe/connect/:linkId', opts, async (req, reply) => {
    const form = { businessName: field(req.body, 'businessName'), iban: field(req.body, 'iban') };
    const view = await hosted.completeOnboarding(req.params.linkId, form);
    if (!view) return html(reply, notFoundPage(), 404);
    if (view.kind === 'redirect') return redirect(reply, view);
    return html(reply, onboardingPage(view, form), 422);
  });

  const checkoutAnswer = (reply: FastifyReply, view: CheckoutView | Redirect | null, form?: Record<string, string | undefined>) => {
    if (!view) return html(reply, notFoundPage(), 404);
    if (view.kind === 'redirect') return redirect(reply, view);
    return html(reply, checkoutPage(view, view.error && view.step === 'card' ? form : undefined), view.error ? 422 : 200);
  };
  app.get<{ Params: { sessionId: string } }>('/sandbox/stripe/checkout/:sessionId', opts, async (req, reply) =>
    checkoutAnswer(reply, await hosted.checkout(req.params.sessionId)),
  );
  app.post<{ Params: { sessionId: string } }>('/sandbox/stripe/checkout/:sessionId', opts, async (req, reply) => {
    const form = { number: field(req.body, 'number'), exp: field(req.body, 'exp'), cvc: field(req.body, 'cvc') };
    return checkoutAnswer(reply, await hosted.submitCard(req.params.sessionId, form), form);
  });
  app.post<{ Params: { sessionId: string } }>('/sandbox/stripe/checkout/:sessionId/autenticar', opts, async (req, reply) => {
    const decision = field(req.body, 'decision');
    if (decision !== 'approve' && decision !== 'reject') return html(reply, errorPage(400), 400);
    return checkoutAnswer(reply, await hosted.authenticate(req.params.sessionId, decision === 'approve'));
  });

  // The Customer Portal of the platform's customers (Diván's own plans).
  const portals = sandbox.billing.portals;
  // The test clock (Stripe's is `test_helpers.test_clocks.advance`): a subscription's renewals, retries and end played up to `frozen_time`.
  app.post('/sandbox/stripe/test_clocks/advance', opts, async (req, reply) => {
    const subscription = field(req.body, 'subscription') ?? '';
    const frozen = Number(field(req.body, 'frozen_time'));
    if (!Number.isSafeInteger(frozen)) return reply.status(400).send({ error: { message: 'frozen_time: segundos Unix' } });
    const sub = await sandbox.billing.renewals.advance(subscription, frozen);
    return { id: sub.id, status: sub.status, current_period_end: sub.items.data[0]?.current_period_end ?? null };
  });
  const portalAnswer = (reply: FastifyReply, view: PortalView | null) =>
    view ? html(reply, portalPage(view), view.error ? 422 : 200) : html(reply, notFoundPage(), 404);
  app.get<{ Params: { sessionId: string } }>('/sandbox/stripe/portal/:sessionId', opts, async (req, reply) =>
    portalAnswer(reply, await portals.view(req.params.sessionId)),
  );
  app.post<{ Params: { sessionId: string } }>('/sandbox/stripe/portal/:sessionId', opts, async (req, reply) => {
    const form = { number: field(req.body, 'number'), exp: field(req.body, 'exp'), cvc: field(req.body, 'cvc') };
    return portalAnswer(reply, await portals.addCard(req.params.sessionId, form));
  });
  app.post<{ Params: { sessionId: string } }>('/sandbox/stripe/portal/:sessionId/quitar', opts, async (req, reply) =>
    portalAnswer(reply, await portals.removeCard(req.params.sessionId, field(req.body, 'paymentMethod') ?? '')),
  );

  app.get<{ Params: { accountId: string } }>('/sandbox/stripe/dashboard/:accountId', opts, async (req, reply) => {
    const data = await hosted.dashboard(req.params.accountId);
    return data ? html(reply, dashboardPage(data)) : html(reply, notFoundPage(), 404);
  });

  app.route({
    method: ['GET', 'POST'],
    url: '/sandbox/stripe/*',
    ...opts,
    handler: async (_req, reply) => html(reply, notFoundPage(), 404),
  });
}

function html(reply: FastifyReply, body: string, status = 200) {
  // Single-use pages with tokens in their URL: never cached, never indexed.
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(body);
}

const redirect = (reply: FastifyReply, to: Redirect) => reply.header('cache-control', 'no-store').redirect(to.url, 303);

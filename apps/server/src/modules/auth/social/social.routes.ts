import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createPasswordBody,
  createPasswordCodeResponse,
  identitiesResponse,
  identityAuthorizeResponse,
  identityLinkBody,
  identityResponse,
  socialAuthorizeBody,
  socialAuthorizeResponse,
  socialLinkBody,
  socialLoginBody,
  socialLoginResponse,
  socialProvider,
  socialProvidersResponse,
  socialLinkResponse,
} from '@divan/core';
import { z } from 'zod';
import { deviceOf as device, requestInfo as ctx } from '../request-info';
import type { SocialSignIn } from './social-sign-in.service';
import type { Identities } from './identities.service';
import type { CreatePassword } from './create-password';

const BASE = '/api/v1/realms/therapists/login';
const noContent = { 204: z.null().describe('No content') };
const providerParams = z.object({ provider: socialProvider });

type Opts = { signIn: SocialSignIn; identities: Identities; createPassword: CreatePassword; publicUrl: string; perIpPerMinute: number };

/**
 * Sign in with Google or Apple (spec §7, `POST /realms/therapists/login/{provider}`), Apple's form_post callback, and the
 * identities of Ajustes › Seguridad under `/me/identities`.
 */
export async function socialRoutes(app: FastifyInstance, opts: Opts) {
  const { signIn, identities } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { max: opts.perIpPerMinute, timeWindow: 60_000 };
  const pub = { access: 'public' as const, rateLimit };
  const user = { access: 'user' as const, rateLimit };
  const tags = ['auth'];

  r.get(
    `${BASE}/providers`,
    { config: pub, schema: { operationId: 'listSocialProviders', tags, response: { 200: socialProvidersResponse } } },
    async () => ({ providers: signIn.providers() }),
  );
  r.post(
    `${BASE}/:provider/authorize`,
    {
      config: pub,
      schema: {
        operationId: 'authorizeSocialLogin',
        tags,
        description: 'The provider’s authorization URL (code flow with PKCE) to send the browser to.',
        params: providerParams,
        body: socialAuthorizeBody,
        response: { 200: socialAuthorizeResponse },
      },
    },
    (req) => signIn.start(req.params.provider, { purpose: req.body.form, referralCode: req.body.referralCode ?? null }),
  );
  r.post(
    `${BASE}/:provider`,
    {
      config: pub,
      schema: {
        operationId: 'socialLogin',
        tags,
        description:
          'The code and state the provider sent back (and Apple’s `user`, on the first authorization only). Signed in, or `link_required`: the existing account with that email must type the code mailed to it.',
        params: providerParams,
        body: socialLoginBody,
        response: { 200: socialLoginResponse },
      },
    },
    (req) => signIn.login(req.params.provider, req.body, device(req.body), ctx(req)),
  );
  r.post(
    `${BASE}/:provider/link`,
    {
      config: pub,
      schema: {
        operationId: 'confirmSocialLink',
        tags,
        description: 'The code mailed to the existing account: links the identity and signs in.',
        params: providerParams,
        body: socialLinkBody,
        response: { 200: socialLinkResponse },
      },
    },
    (req) => signIn.confirmLink(req.params.provider, req.body, device(req.body), ctx(req)),
  );
  await app.register(appleCallbackRoute, { publicUrl: opts.publicUrl, rateLimit });

  const me = ['me'];
  r.get(
    '/api/v1/me/identities',
    { config: user, schema: { operationId: 'listIdentities', tags: me, response: { 200: identitiesResponse } } },
    (req) => identities.list(req.user!.id),
  );
  r.post(
    '/api/v1/me/identities/:provider/authorize',
    {
      config: user,
      schema: {
        operationId: 'authorizeIdentityLink',
        tags: me,
        description:
          'Starts linking another provider to the signed-in account; the callback page then posts to `/me/identities/{provider}`.',
        params: providerParams,
        response: { 200: identityAuthorizeResponse },
      },
    },
    (req) => identities.authorize(req.user!.id, req.params.provider),
  );
  r.post(
    '/api/v1/me/identities/:provider',
    {
      config: user,
      schema: {
        operationId: 'linkIdentity',
        tags: me,
        params: providerParams,
        body: identityLinkBody,
        response: { 200: identityResponse },
      },
    },
    (req) => identities.link(req.user!.id, req.params.provider, req.body),
  );
  r.delete(
    '/api/v1/me/identities/:id',
    {
      config: user,
      schema: {
        operationId: 'unlinkIdentity',
        tags: me,
        description: 'Refused (`identity_last_way_in`) for the only identity of an account without a password.',
        params: z.object({ id: z.uuid({ error: 'Identificador no válido' }) }),
        response: noContent,
      },
    },
    async (req, reply) => {
      await identities.unlink(req.user!.id, req.params.id);
      return reply.status(204).send(null);
    },
  );
  // «Crear contraseña»: an account made through a provider proves its mailbox with a mailed code, then has a password too.
  r.post(
    '/api/v1/me/password/code',
    {
      config: user,
      schema: {
        operationId: 'sendCreatePasswordCode',
        tags: me,
        description:
          'Mails the account’s email a 6-digit code to create a password (accounts without one; `password_already_set` otherwise).',
        response: { 200: createPasswordCodeResponse },
      },
    },
    (req) => opts.createPassword.sendCode(req.user!.id),
  );
  r.post(
    '/api/v1/me/password',
    {
      config: user,
      schema: {
        operationId: 'createPassword',
        tags: me,
        description: 'Sets the first password of an account made through a provider, with the code of `/me/password/code`.',
        body: createPasswordBody,
        response: noContent,
      },
    },
    async (req, reply) => {
      await opts.createPassword.create(req.user!.id, req.body);
      return reply.status(204).send(null);
    },
  );
}

const FORM = 'application/x-www-form-urlencoded';
const field = (body: unknown, name: string, max: number): string | undefined => {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === 'string' && v.length > 0 && v.length <= max && !v.includes('\0') ? v : undefined;
};

/**
 * Apple posts its answer (response_mode=form_post: `code`, `state`, `user` the first time, or `error`) here; the browser is
 * sent on (303) to the web app's `/auth/apple/callback` with the same fields in its query, where the page finishes as
 * Google's does. Form bodies are parsed in this plugin only; anything unreadable goes on as an error, never a 500.
 */
async function appleCallbackRoute(app: FastifyInstance, opts: { publicUrl: string; rateLimit: { max: number; timeWindow: number } }) {
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post(
    `${BASE}/apple/callback`,
    {
      config: { access: 'public', rateLimit: opts.rateLimit },
      schema: {
        operationId: 'appleCallback',
        tags: ['auth'],
        consumes: [FORM],
        description:
          'Apple’s form_post, form fields `code`, `state`, `user` (JSON, first authorization only) or `error`; no body schema, so that anything unreadable still sends the browser back. Answers 303 to the web app’s `/auth/apple/callback?code=…&state=…&user=…` (or `?error=…`).',
        response: { 303: z.null().describe('See Other') },
      },
    },
    async (req, reply) => {
      const target = new URL(`${opts.publicUrl}/auth/apple/callback`);
      const code = field(req.body, 'code', 2000);
      const state = field(req.body, 'state', 200);
      const user = field(req.body, 'user', 2000);
      if (code && state) {
        target.searchParams.set('code', code);
        target.searchParams.set('state', state);
        if (user) target.searchParams.set('user', user);
      } else target.searchParams.set('error', field(req.body, 'error', 100)?.replace(/[^\w.-]/g, '') || 'invalid_request');
      return reply.redirect(target.href, 303);
    },
  );
}

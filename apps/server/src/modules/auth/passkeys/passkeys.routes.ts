import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  authTokensResponse,
  passkeyAssertionBody,
  passkeyIdParams,
  passkeyListResponse,
  passkeyLoginBody,
  passkeyLoginOptionsBody,
  passkeyResponse,
  passkeySignInBody,
  registerPasskeyBody,
  renamePasskeyBody,
  webauthnOptionsResponse,
} from '@divan/core';
import { z } from 'zod';
import { deviceOf as device, requestInfo as ctx } from '../request-info';
import type { AuthService } from '../auth.service';
import type { PasskeysService } from './passkeys.service';

const BASE = '/api/v1/realms/therapists';
const tags = ['auth'];
const noContent = { 204: z.null().describe('No content') };
// The Zod schemas check the shape and bounds; @simplewebauthn checks the rest (encodings, CBOR, signatures).
const assertion = (r: unknown) => r as AuthenticationResponseJSON;

/**
 * Passkeys (issue 32): the person's own (`/passkeys`, registering exempt from the policy's enrolment: a passkey is
 * one way to enrol), signing in with one alone, the second step of a sign-in, and step-up.
 */
export async function passkeysRoutes(app: FastifyInstance, opts: { auth: AuthService; passkeys: PasskeysService; perIpPerMinute: number }) {
  const { auth, passkeys } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: { max: opts.perIpPerMinute, timeWindow: 60_000 } };
  const pub = { access: 'public' as const, ...limited };
  const enrolling = { access: 'user' as const, secondFactorExempt: true, ...limited };
  const user = { access: 'user' as const, ...limited };
  const me = (req: FastifyRequest) => req.user!;
  const P = `${BASE}/passkeys`;

  r.get(P, { config: enrolling, schema: { operationId: 'listPasskeys', tags, response: { 200: passkeyListResponse } } }, async (req) => ({
    items: await passkeys.list(me(req).id),
  }));
  r.post(
    `${P}/options`,
    {
      config: enrolling,
      schema: {
        operationId: 'startPasskeyRegistration',
        tags,
        description:
          'Options for `navigator.credentials.create` (a discoverable credential); the challenge is answered once within 5 minutes.',
        response: { 200: webauthnOptionsResponse },
      },
    },
    (req) => passkeys.registrationOptions(me(req)),
  );
  r.post(
    P,
    {
      config: enrolling,
      schema: {
        operationId: 'registerPasskey',
        tags,
        description: "The browser's answer to `/passkeys/options`, with a name.",
        body: registerPasskeyBody,
        response: { 201: passkeyResponse },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await passkeys.register(me(req), req.body.name, req.body.response as unknown as RegistrationResponseJSON)),
  );
  r.patch(
    `${P}/:passkeyId`,
    {
      config: user,
      schema: {
        operationId: 'renamePasskey',
        tags,
        params: passkeyIdParams,
        body: renamePasskeyBody,
        response: { 200: passkeyResponse },
      },
    },
    (req) => passkeys.rename(me(req), req.params.passkeyId, req.body.name),
  );
  r.delete(
    `${P}/:passkeyId`,
    {
      config: user,
      schema: {
        operationId: 'deletePasskey',
        tags,
        description: 'Needs step-up. Never the last way in, nor the last second factor under the workspace policy.',
        params: passkeyIdParams,
        response: noContent,
      },
    },
    async (req, reply) => {
      await passkeys.remove(me(req), req.params.passkeyId);
      return reply.status(204).send(null);
    },
  );

  r.post(
    `${BASE}/login/passkey/options`,
    {
      config: pub,
      schema: {
        operationId: 'startPasskeySignIn',
        tags,
        description: 'Signing in with a passkey alone: options without a user (the browser offers its discoverable credentials).',
        response: { 200: webauthnOptionsResponse },
      },
    },
    () => passkeys.signInOptions(),
  );
  r.post(
    `${BASE}/login/passkey`,
    {
      config: pub,
      schema: {
        operationId: 'signInWithPasskey',
        tags,
        description: 'The same tokens as a sign-in.',
        body: passkeySignInBody,
        response: { 200: authTokensResponse },
      },
    },
    (req) => passkeys.signIn(assertion(req.body.response), device(req.body), ctx(req)),
  );

  const SF = `${BASE}/second-factor`;
  r.post(
    `${SF}/login/passkey/options`,
    {
      config: pub,
      schema: {
        operationId: 'startPasskeySecondStep',
        tags,
        description: "The second step of a sign-in (the challenge of `/code`) with a passkey: options for that account's passkeys.",
        body: passkeyLoginOptionsBody,
        response: { 200: webauthnOptionsResponse },
      },
    },
    async (req) => passkeys.secondFactorOptions(await auth.secondFactorChallengeUser(req.body.challenge), 'second_factor'),
  );
  r.post(
    `${SF}/login/passkey`,
    {
      config: pub,
      schema: {
        operationId: 'loginSecondFactorPasskey',
        tags,
        description: 'The challenge of `/code` answered by a passkey: the tokens of the sign-in.',
        body: passkeyLoginBody,
        response: { 200: authTokensResponse },
      },
    },
    (req) =>
      auth.loginSecondFactor({ challenge: req.body.challenge }, device(req.body), ctx(req), (userId) =>
        passkeys.assert('second_factor', assertion(req.body.response), userId),
      ),
  );
  r.post(
    `${SF}/step-up/passkey/options`,
    {
      config: user,
      schema: { operationId: 'startPasskeyStepUp', tags, response: { 200: webauthnOptionsResponse } },
    },
    (req) => passkeys.secondFactorOptions(me(req).id, 'step_up'),
  );
  r.post(
    `${SF}/step-up/passkey`,
    {
      config: user,
      schema: {
        operationId: 'stepUpPasskey',
        tags,
        description: 'Step-up with a passkey: sensitive actions of this session are allowed for 10 minutes.',
        body: passkeyAssertionBody,
        response: { 200: z.object({ verifiedAt: z.iso.datetime() }) },
      },
    },
    (req) => passkeys.stepUp(me(req), assertion(req.body.response)),
  );
}

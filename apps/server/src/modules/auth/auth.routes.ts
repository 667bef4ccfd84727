import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authTokensResponse,
  changePasswordBody,
  deviceInfo,
  emailQuery,
  loginBody,
  therapistLoginChallengeResponse,
  loginCodeBody,
  passwordResetBody,
  refreshResponse,
  signUpBody,
  signUpResponse,
  tokenChallengeBody,
} from '@divan/core';
import { z } from 'zod';
import { deviceOf as device, requestInfo as ctx } from './request-info';
import type { AuthService } from './auth.service';

const BASE = '/api/v1/realms/therapists';
const tags = ['auth'];
const noContent = { 204: z.null().describe('No content') };

/** The auth table of spec §7, under `/api/v1/realms/therapists`. Social sign-in will add `/login/:provider`. */
export async function authRoutes(app: FastifyInstance, opts: { auth: AuthService; perIpPerMinute: number }) {
  const { auth } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pub = { access: 'public' as const, rateLimit: { max: opts.perIpPerMinute, timeWindow: 60_000 } };
  const refresh = { access: 'refresh' as const, rateLimit: { max: opts.perIpPerMinute, timeWindow: 60_000 } };

  r.post(
    `${BASE}/users`,
    { config: pub, schema: { operationId: 'signUp', tags, body: signUpBody, response: { 201: signUpResponse } } },
    async (req, reply) => reply.status(201).send(await auth.signUp(req.body)),
  );
  r.get(
    `${BASE}/signup/challenge`,
    { config: pub, schema: { operationId: 'resendSignUpChallenge', tags, querystring: emailQuery, response: noContent } },
    async (req, reply) => {
      await auth.resendConfirmation(req.query.email);
      return reply.status(204).send(null);
    },
  );
  r.post(
    `${BASE}/signup/challenge`,
    { config: pub, schema: { operationId: 'confirmSignUp', tags, body: tokenChallengeBody, response: { 200: authTokensResponse } } },
    (req) => auth.confirmSignUp(req.body.code, device(req.body), ctx(req)),
  );
  r.post(
    `${BASE}/code`,
    { config: pub, schema: { operationId: 'startLogin', tags, body: loginCodeBody, response: { 200: therapistLoginChallengeResponse } } },
    (req) => auth.startLogin(req.body.email, req.body.password),
  );
  r.post(
    `${BASE}/login`,
    { config: pub, schema: { operationId: 'login', tags, body: loginBody, response: { 200: authTokensResponse } } },
    (req) => auth.login(req.body.challenge, req.body.code, device(req.body), ctx(req)),
  );
  r.get(
    `${BASE}/password/challenge`,
    { config: pub, schema: { operationId: 'requestPasswordReset', tags, querystring: emailQuery, response: noContent } },
    async (req, reply) => {
      await auth.requestPasswordReset(req.query.email);
      return reply.status(204).send(null);
    },
  );
  r.post(
    `${BASE}/password/challenge`,
    {
      config: pub,
      schema: {
        operationId: 'resetPassword',
        tags,
        description: 'An account with a second factor gets the challenge of its second step (as `/code` answers) instead of tokens.',
        body: passwordResetBody,
        response: { 200: z.union([authTokensResponse, therapistLoginChallengeResponse]) },
      },
    },
    (req) => auth.resetPassword(req.body.code, req.body.password, device(req.body), ctx(req)),
  );
  r.get(
    `${BASE}/token`,
    {
      config: refresh,
      schema: {
        operationId: 'refreshToken',
        tags,
        description: 'Refresh token as bearer; device info as query.',
        querystring: deviceInfo,
        response: { 200: refreshResponse },
      },
    },
    (req) => auth.refresh(req.bearer!, device(req.query), ctx(req)),
  );
  r.delete(
    `${BASE}/sessions`,
    { config: refresh, schema: { operationId: 'logout', tags, description: 'Refresh token as bearer.', response: noContent } },
    async (req, reply) => {
      await auth.logout(req.bearer!);
      return reply.status(204).send(null);
    },
  );
  r.post(
    `${BASE}/password`,
    {
      config: refresh,
      schema: {
        operationId: 'changePassword',
        tags,
        description: 'Refresh token as bearer.',
        body: changePasswordBody,
        response: noContent,
      },
    },
    async (req, reply) => {
      await auth.changePassword(req.bearer!, req.body.currentPassword, req.body.newPassword);
      return reply.status(204).send(null);
    },
  );
}

import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Action, AppAbility, Subject } from '@divan/core';
import { AppError } from '../errors';
import { bearerOf, type TokenService } from './tokens';

/**
 * Every route states its access, and the app refuses to start with one that does not:
 * - `public`: anyone;
 * - `user`: a valid access token (bearer) — `request.user` is set;
 * - `refresh`: a refresh token as bearer, checked by the auth service (`request.bearer`).
 * - `patient`: a valid access token of realm `patients` (a patient's own account) — `request.patient`
 *   is set; every other access refuses such a token, and this one refuses a therapist's.
 * - `{ workspace: 'member' }`: a member of the workspace in the path (`:workspaceId`);
 * - `{ workspace: [action, subject] }`: a member holding that permission (on some record: services
 *   narrow "is owner" permissions with `scopeFor`). Anyone else gets 404: they learn nothing.
 */
export type Access = 'public' | 'user' | 'refresh' | 'patient' | { workspace: 'member' | 'owner' | [Action, Subject] };
export type RequestUser = { id: string; sessionId: string };
/** A patient signed in to their own account (realm `patients`). */
export type RequestPatient = { accountId: string; sessionId: string };
export type Membership = {
  workspaceId: string;
  memberId: string;
  isOwner: boolean;
  isAdmin: boolean;
  ability: AppAbility;
};
export type MembershipResolver = (workspaceId: string, userId: string) => Promise<Membership | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Reachable by a user who must still enrol a second factor (issue 32): the enrolment and signing out. */
    secondFactorExempt?: boolean;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the authorization matrix test. */
    declaredRoutes: () => { method: string; url: string; access: Access }[];
  }
  interface FastifyRequest {
    user?: RequestUser;
    patient?: RequestPatient;
    bearer?: string;
    member?: Membership;
  }
}

export const accessPlugin = fp(async (app: FastifyInstance, opts: { tokens: TokenService; resolveMembership?: MembershipResolver }) => {
  // Checked once all onRoute hooks (including `declarePublic` in child contexts) have run.
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route: RouteOptions) => void routes.push(route));
  app.decorate('declaredRoutes', () =>
    routes.flatMap((r) =>
      [r.method].flat().map((method) => ({ method: String(method), url: r.url, access: (r.config as { access: Access }).access })),
    ),
  );
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((r) => !(r.config as { access?: Access } | undefined)?.access);
    const unscoped = routes.filter((r) => {
      const access = (r.config as { access?: Access } | undefined)?.access;
      return typeof access === 'object' && !r.url.includes(':workspaceId');
    });
    if (unscoped.length) throw new Error(`Workspace access on a route without :workspaceId: ${unscoped.map((r) => r.url).join(', ')}`);
    if (undeclared.length)
      throw new Error(`Routes without declared access: ${undeclared.map((r) => `${String(r.method)} ${r.url}`).join(', ')}`);
  });
  // Synchronous except where a membership must be read: most requests pay no promise overhead.
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    const access = req.routeOptions.config.access;
    try {
      if (access === 'user') req.user = authenticate(req, opts.tokens);
      else if (access === 'patient') req.patient = authenticatePatient(req, opts.tokens);
      else if (typeof access === 'object') {
        req.user = authenticate(req, opts.tokens);
        authorize(req, access.workspace, opts.resolveMembership).then((m) => {
          req.member = m;
          done();
        }, done);
        return;
      } else if (access === 'refresh') {
        req.bearer = bearerOf(req.headers.authorization);
        if (!req.bearer) throw new AppError('session_not_found');
      }
      done();
    } catch (err) {
      done(err as Error);
    }
  });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function authorize(
  req: FastifyRequest,
  need: 'member' | 'owner' | [Action, Subject],
  resolve: MembershipResolver | undefined,
): Promise<Membership> {
  const workspaceId = (req.params as { workspaceId?: string }).workspaceId;
  if (!resolve || !workspaceId || !UUID.test(workspaceId)) throw new AppError('workspace_not_found');
  const member = await resolve(workspaceId, req.user!.id);
  if (!member) throw new AppError('workspace_not_found');
  if (need === 'owner' && !member.isOwner) throw new AppError('workspace_not_owner');
  if (Array.isArray(need) && !member.ability.can(need[0], need[1])) throw new AppError('access_denied');
  return member;
}

function authenticate(req: FastifyRequest, tokens: TokenService): RequestUser {
  const token = bearerOf(req.headers.authorization);
  const claims = token ? tokens.verifyAccess(token) : null;
  if (!claims) throw new AppError('invalid_access_token');
  // A workspace requires a second factor this user has not set up: nothing but the enrolment until they do.
  if (claims.enrol && !req.routeOptions.config.secondFactorExempt) throw new AppError('second_factor_enrolment_required');
  return { id: claims.sub, sessionId: claims.sid };
}

function authenticatePatient(req: FastifyRequest, tokens: TokenService): RequestPatient {
  const token = bearerOf(req.headers.authorization);
  const claims = token ? tokens.verifyAccess(token, 'patients') : null;
  if (!claims) throw new AppError('invalid_access_token');
  return { accountId: claims.sub, sessionId: claims.sid };
}

/** For third-party routes (docs, static files): call inside their own encapsulated context. */
export function declarePublic(scope: FastifyInstance) {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const config = (route.config ?? {}) as { access?: Access };
    route.config = { ...config, access: config.access ?? 'public' };
  });
}

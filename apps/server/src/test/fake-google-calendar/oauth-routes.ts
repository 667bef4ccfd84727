import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { FAKE_CLIENT, type FakeGoogleStore } from './store';

const oauthError = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error, error_description: error });

/** The client's credentials, by client_secret_basic or client_secret_post. */
function clientOf(req: FastifyRequest, form: Record<string, string>) {
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent);
    return { id, secret };
  }
  return { id: form.client_id, secret: form.client_secret };
}

/**
 * Google's OAuth 2.0 endpoints as Calendar's connection uses them: the consent page consents at once and
 * redirects with a code (PKCE S256 checked at the token endpoint, a code used once); the token endpoint
 * answers authorization_code (a refresh token unless `omitRefreshToken`) and refresh_token grants; revoke.
 */
export function oauthRoutes(app: FastifyInstance, store: FakeGoogleStore) {
  app.get('/o/oauth2/v2/auth', async (req, reply) => {
    const q = req.query as Record<string, string>;
    if (q.client_id !== FAKE_CLIENT.id || !q.redirect_uri || q.response_type !== 'code') return oauthError(reply, 400, 'invalid_request');
    if (q.code_challenge_method !== 'S256' || !q.code_challenge) return oauthError(reply, 400, 'invalid_request');
    const code = `4/fake-code-${randomBytes(12).toString('base64url')}`;
    store.codes.set(code, {
      clientId: q.client_id,
      redirectUri: q.redirect_uri,
      challenge: q.code_challenge,
      scope: q.scope ?? '',
      used: false,
    });
    const to = new URL(q.redirect_uri);
    to.searchParams.set('code', code);
    if (q.state) to.searchParams.set('state', q.state);
    to.searchParams.set('scope', q.scope ?? '');
    return reply.redirect(to.href, 302);
  });

  app.post('/token', async (req, reply) => {
    const form = req.body as Record<string, string>;
    const client = clientOf(req, form);
    if (client.id !== FAKE_CLIENT.id || client.secret !== FAKE_CLIENT.secret) return oauthError(reply, 401, 'invalid_client');
    if (form.grant_type === 'authorization_code') {
      const c = store.codes.get(form.code ?? '');
      if (!c || c.used || c.redirectUri !== form.redirect_uri) return oauthError(reply, 400, 'invalid_grant');
      c.used = true;
      const challenge = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (challenge !== c.challenge) return oauthError(reply, 400, 'invalid_grant');
      const g = store.grant(!store.switches.omitRefreshToken);
      return {
        access_token: g.access,
        expires_in: 3599,
        token_type: 'Bearer',
        scope: c.scope,
        ...(g.refresh ? { refresh_token: g.refresh } : {}),
      };
    }
    if (form.grant_type === 'refresh_token') {
      const r = store.refreshTokens.get(form.refresh_token ?? '');
      if (!r || r.revoked) return oauthError(reply, 400, 'invalid_grant');
      return { access_token: store.access(form.refresh_token!), expires_in: 3599, token_type: 'Bearer' };
    }
    return oauthError(reply, 400, 'unsupported_grant_type');
  });

  app.post('/revoke', async (req, reply) => {
    const form = (req.body ?? {}) as Record<string, string>;
    const t = form.token ?? (req.query as Record<string, string>).token;
    if (!t) return oauthError(reply, 400, 'invalid_request');
    store.revoke(t);
    return reply.code(200).send({});
  });
}

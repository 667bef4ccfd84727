import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION } from '@divan/core';
import { declarePublic } from '../auth/access';

/** OpenAPI 3.1 generated from the route schemas: `/api/v1/openapi.json`, browsable at `/api/docs`. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Diván API', version: APP_VERSION, description: 'API de Diván. Errores: `{code, message}`.' },
      components: {
        securitySchemes: {
          accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          refreshToken: { type: 'http', scheme: 'bearer', description: 'Refresh token of a device session' },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const access = (input.route.config as { access?: string } | undefined)?.access;
      const security = access === 'user' ? [{ accessToken: [] }] : access === 'refresh' ? [{ refreshToken: [] }] : undefined;
      return security ? { ...out, schema: { ...out.schema, security } } : out;
    },
  });
  await app.register(async (scope) => {
    declarePublic(scope);
    scope.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await scope.register(swaggerUi, { routePrefix: '/api/docs' });
  });
}

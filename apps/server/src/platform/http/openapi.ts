import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION } from '@divan/core';
import { declarePublic, type Access } from '../auth/access';

/** What the document says of a route's access: its security requirement and, in a workspace, the permission it needs. */
export function accessDoc(access: Access | undefined): { security?: Record<string, string[]>[]; 'x-permission'?: Record<string, string> } {
  if (access === 'user') return { security: [{ bearerAuth: [] }] };
  if (access === 'refresh') return { security: [{ refreshToken: [] }] };
  if (access === 'patient') return { security: [{ patientBearerAuth: [] }] };
  if (typeof access === 'object') {
    const need = access.workspace;
    const permission: Record<string, string> = Array.isArray(need) ? { action: need[0], subject: need[1] } : { membership: need };
    return { security: [{ bearerAuth: [] }], 'x-permission': permission };
  }
  return {};
}

const UPLOAD_BODY = {
  type: 'object',
  properties: {
    file: { type: 'string', format: 'binary', description: 'Un solo archivo; un segundo archivo se rechaza (`too_many_files`).' },
  },
  required: ['file'],
};

/** OpenAPI 3.1 generated from the route schemas: `/api/v1/openapi.json`, browsable at `/api/docs`. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Diván API',
        version: APP_VERSION,
        description:
          'API de Diván. Errores: `{code, message}`. Las rutas de un espacio de trabajo indican en `x-permission` el permiso que exigen (`{action, subject}`) o `{membership: "member" | "owner"}`; quien no lo tiene recibe 404 o 403.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token' },
          refreshToken: { type: 'http', scheme: 'bearer', description: 'Refresh token of a device session' },
          patientBearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Access token of a patient account (realm patients)',
          },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const doc = accessDoc((input.route.config as { access?: Access } | undefined)?.access);
      const schema: Record<string, unknown> = { ...out.schema, ...doc };
      // An upload route reads its parts itself; the document still says what it takes (one field `file`).
      if ((schema.consumes as string[] | undefined)?.includes('multipart/form-data') && !schema.body) schema.body = UPLOAD_BODY;
      return { ...out, schema };
    },
  });
  await app.register(async (scope) => {
    declarePublic(scope);
    scope.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await scope.register(swaggerUi, { routePrefix: '/api/docs' });
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IMAGE_MAX_BYTES, profileResponse, updateProfileBody } from '@divan/core';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { readUpload } from '../../platform/http/upload';
import type { ImageKind, UsersService } from './users.service';

const tags = ['me'];

export async function usersRoutes(app: FastifyInstance, { users }: { users: UsersService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = (req: FastifyRequest) => req.user!.id;

  r.get(
    '/api/v1/me',
    { config: { access: 'user' }, schema: { operationId: 'getMe', tags, response: { 200: profileResponse } } },
    async (req, reply) => reply.type('application/json; charset=utf-8').send((await users.profileJson(user(req))) as never),
  );
  r.patch(
    '/api/v1/me',
    {
      config: { access: 'user' },
      schema: { operationId: 'updateMe', tags, body: updateProfileBody, response: { 200: profileResponse } },
    },
    (req) => users.updateProfile(user(req), req.body),
  );
  for (const kind of ['picture', 'logo'] as const satisfies ImageKind[]) {
    const Kind = kind[0]!.toUpperCase() + kind.slice(1);
    r.put(
      `/api/v1/me/${kind}`,
      {
        config: { access: 'user' },
        schema: {
          operationId: `upload${Kind}`,
          tags,
          consumes: ['multipart/form-data'],
          description: `Multipart with one field \`file\`: PNG, JPEG or WebP up to ${IMAGE_MAX_BYTES / 1024 / 1024} MB${kind === 'logo' ? ', square' : ''}.`,
          response: { 200: profileResponse },
        },
      },
      async (req) => {
        const { file } = await readUpload(req, { maxBytes: IMAGE_MAX_BYTES });
        if (!file) throw new AppError('unexpected_file');
        return users.setImage(user(req), kind, file.data);
      },
    );
    r.delete(
      `/api/v1/me/${kind}`,
      {
        config: { access: 'user' },
        schema: { operationId: `delete${Kind}`, tags, params: z.object({}), response: { 200: profileResponse } },
      },
      (req) => users.removeImage(user(req), kind),
    );
  }
}

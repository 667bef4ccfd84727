import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createTaskBody, taskIdParams, taskListQuery, taskResponse, updateTaskBody, workspaceIdParams } from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import type { TasksService } from './tasks.service';

const tags = ['tasks'];
const T = '/api/v1/workspaces/:workspaceId/tasks';
/** Every member keeps their own to-do list: membership is the permission; the service keeps each list to its owner. */
const member = { workspace: 'member' } as const;

export async function tasksRoutes(app: FastifyInstance, { tasks }: { tasks: TasksService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    T,
    {
      config: { access: member },
      schema: {
        operationId: 'listTasks',
        tags,
        description: "The caller's own tasks: open first, by due day.",
        params: workspaceIdParams,
        querystring: taskListQuery,
        response: { 200: z.array(taskResponse) },
      },
    },
    (req) => tasks.list(caller(req), req.query),
  );
  r.post(
    T,
    {
      config: { access: member },
      schema: { operationId: 'createTask', tags, params: workspaceIdParams, body: createTaskBody, response: { 201: taskResponse } },
    },
    async (req, reply) => reply.status(201).send(await tasks.create(caller(req), req.body)),
  );
  r.patch(
    `${T}/:taskId`,
    {
      config: { access: member },
      schema: { operationId: 'updateTask', tags, params: taskIdParams, body: updateTaskBody, response: { 200: taskResponse } },
    },
    (req) => tasks.update(caller(req), req.params.taskId, req.body),
  );
  r.delete(
    `${T}/:taskId`,
    { config: { access: member }, schema: { operationId: 'deleteTask', tags, params: taskIdParams, response: { 204: z.null() } } },
    async (req, reply) => {
      await tasks.delete(caller(req), req.params.taskId);
      return reply.status(204).send(null);
    },
  );
}

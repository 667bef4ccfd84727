import type { FastifyRequest } from 'fastify';
import type { Membership } from './access';

/** Who makes a workspace request: their membership of the route's workspace and their user id. */
export type Caller = { member: Membership; userId: string };

/** The caller of a workspace route, once the access plugin has resolved its membership. */
export const caller = (req: FastifyRequest): Caller => ({ member: req.member!, userId: req.user!.id });

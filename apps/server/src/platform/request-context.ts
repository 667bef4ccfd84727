import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request (or job) the running code serves, across awaits: set for each HTTP request (its id) and
 * for each job (its id, its queue, and the id of the request that enqueued it). Jobs.send carries the
 * request id in the job's data; the logger adds a job's fields to every line logged while it runs, so
 * one request id finds a request's lines and those of the jobs it caused, in any process.
 */
export type RequestContext = { requestId?: string; job?: string; queue?: string };

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The request id of the enclosing request or job, if any. */
export const currentRequestId = () => requestContext.getStore()?.requestId;

/** The logger's mixin: inside a job, its id and queue and the request id that caused it (a request's lines carry `reqId` already). */
export function jobLogFields(): Record<string, string> {
  const c = requestContext.getStore();
  if (!c?.job) return {};
  return { job: c.job, queue: c.queue!, ...(c.requestId ? { requestId: c.requestId } : {}) };
}

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorMessage, type ApiErrorBody, type ErrorCode, type FieldError } from '@divan/core';
import { AppError } from '../errors';
import { StoredFileMissing } from '../storage/storage';
import { closeAfterUnreadBody } from './unread-body';

/**
 * One handler turns every failure into `{code, message}` with the right status; never a 500 for bad
 * input. A body the client is still sending is read to its end after the answer (unread-body.ts), so
 * the client reads the answer instead of a reset connection.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const [status, answer] = answerFor(err, req);
    closeAfterUnreadBody(req, reply);
    // Headers set for the payload that failed (a file's type, length, name, a year of caching) do not describe the error.
    for (const h of PAYLOAD_HEADERS) reply.removeHeader(h);
    return reply.status(status).send(answer);
  });
}

const PAYLOAD_HEADERS = ['content-type', 'content-length', 'content-disposition', 'cache-control', 'etag', 'last-modified'];

function answerFor(err: FastifyError, req: FastifyRequest): [number, ApiErrorBody] {
  if (err instanceof StoredFileMissing) {
    // The row says the file exists and the storage has no such key: the installation's fault (a DATA_DIR
    // not shared between processes, a lost volume), said once in the log with the key to look for.
    req.log.error({ storageKey: err.storageKey }, `stored file missing: ${err.storageKey}`);
    return [err.statusCode, body(err.code)];
  }
  if (err instanceof AppError) return [err.statusCode, body(err.code, err.message, err.fields)];
  if (hasZodFastifySchemaValidationErrors(err)) {
    const fields: FieldError[] = err.validation.map((v) => ({
      path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: v.message ?? errorMessage('invalid_argument'),
    }));
    return [400, body('invalid_argument', fields[0]?.message ?? errorMessage('invalid_argument'), fields)];
  }
  if (isResponseSerializationError(err)) {
    req.log.error({ err: err.cause }, 'response does not match its schema');
    return [500, body('internal_server_error')];
  }
  const known = FASTIFY_CODES[err.code];
  if (known) return [known[0], body(known[1])];
  const upload = req.isMultipart?.() === true;
  // The connection went while an upload streamed (the answer may never arrive; nothing was kept).
  if (upload && CUT_CONNECTION.has(err.code)) return [400, body('upload_incomplete')];
  const status = err.statusCode ?? 500;
  // A body past its limit: a file on an upload route, the request itself anywhere else.
  if (status === 413) return [413, body(upload ? 'file_too_large' : 'request_too_large')];
  if (status === 415) return [415, body(upload ? 'invalid_type' : 'unsupported_media_type')];
  if (status === 429) return [429, body('too_many_requests')];
  if (status === 404) return [404, body('not_found')];
  // Malformed JSON, an empty body, a bad content type...: the caller's mistake, said plainly.
  if (status >= 400 && status < 500) return [400, body('invalid_argument')];
  req.log.error({ err }, 'unhandled error');
  return [500, body('internal_server_error')];
}

/** What Fastify and its plugins raise, by their codes (their statuses alone say too little). */
const FASTIFY_CODES: Record<string, [number, ErrorCode]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'request_too_large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'request_malformed'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  // @fastify/multipart: "too many files" comes with a 413 status.
  FST_FILES_LIMIT: [400, 'too_many_files'],
  FST_REQ_FILE_TOO_LARGE: [413, 'file_too_large'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'invalid_type'],
};

const CUT_CONNECTION = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'ECONNABORTED']);

/** Errors Fastify raises before a route is found (`frameworkErrors`), where the error handler does not run. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  // A path part past its length (a pasted link with garbage on it) leads nowhere: like any unknown address.
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(404).send(body('not_found'));
  if (err.code === 'FST_ERR_BAD_URL') return reply.status(400).send(body('invalid_argument', 'La dirección de la petición no es válida.'));
  req.log.error({ err }, 'unhandled framework error');
  return reply.status(500).send(body('internal_server_error'));
}

/**
 * What the HTTP parser refuses (headers too big, a body shorter than its Content-Length when the client
 * stopped half-way, a timeout), written on the socket itself (there is no request): the same
 * `{code, message}` as every other error, unless an answer has already begun.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || answering) return void socket.destroy();
  const [status, code]: [number, ErrorCode] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request_too_large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout']
        : [400, 'request_malformed'];
  const payload = JSON.stringify(body(code));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
}

export function body(code: string, message?: string, fields?: FieldError[]): ApiErrorBody {
  return { code, message: message ?? errorMessage(code), ...(fields?.length ? { fields } : {}) };
}

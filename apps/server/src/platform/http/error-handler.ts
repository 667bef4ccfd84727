import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorMessage, type ApiErrorBody, type FieldError } from '@divan/core';
import { AppError } from '../errors';

/** One handler turns every failure into `{code, message}` with the right status; never a 500 for bad input. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.statusCode).send(body(err.code, err.message, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: FieldError[] = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? errorMessage('invalid_argument'),
      }));
      return reply.status(400).send(body('invalid_argument', fields[0]?.message ?? errorMessage('invalid_argument'), fields));
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err: err.cause }, 'response does not match its schema');
      return reply.status(500).send(body('internal_server_error'));
    }
    const status = err.statusCode ?? 500;
    // Before the 413 check: @fastify/multipart gives "too many files" a 413 status.
    if (err.code === 'FST_FILES_LIMIT') return reply.status(400).send(body('too_many_files'));
    if (err.code === 'FST_REQ_FILE_TOO_LARGE' || status === 413) return reply.status(413).send(body('file_too_large'));
    if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || status === 415) return reply.status(415).send(body('invalid_type'));
    if (status === 429) return reply.status(429).send(body('too_many_requests'));
    if (isBrokenMultipart(req, err)) return reply.status(400).send(body('invalid_argument', BROKEN_UPLOAD));
    if (status >= 400 && status < 500) {
      // Malformed JSON, empty body, bad content type...: the caller's mistake, said plainly.
      return reply.status(status === 404 ? 404 : 400).send(body(status === 404 ? 'not_found' : 'invalid_argument'));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(body('internal_server_error'));
  });
}

const BROKEN_UPLOAD = 'El archivo no ha llegado completo o el formulario de subida está mal formado. Vuelve a subirlo.';
/** What busboy and the request stream say of a multipart body without a boundary, or cut before its end. */
const MULTIPART_FAULTS = /^(Multipart: Boundary not found|Unexpected end of (form|file)|Malformed part header|Malformed urlencoded form)/;

/** A multipart upload the client broke (no boundary, cut short): the caller's mistake, never a 500. */
function isBrokenMultipart(req: FastifyRequest, err: FastifyError): boolean {
  if (!req.isMultipart?.()) return false;
  return MULTIPART_FAULTS.test(err.message) || err.code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/** Errors Fastify raises before a route is found (`frameworkErrors`), where the error handler does not run. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH' || err.code === 'FST_ERR_BAD_URL')
    return reply.status(400).send(body('invalid_argument', 'La dirección de la petición no es válida.'));
  req.log.error({ err }, 'unhandled framework error');
  return reply.status(500).send(body('internal_server_error'));
}

export function body(code: string, message?: string, fields?: FieldError[]): ApiErrorBody {
  return { code, message: message ?? errorMessage(code), ...(fields?.length ? { fields } : {}) };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bookingConfirmResponse,
  bookingHoldParams,
  bookingHoldResponse,
  confirmBookingHoldBody,
  createBookingHoldBody,
  movePublicBookingBody,
  publicBookingResponse,
  publicBookingTokenParams,
  publicServiceParams,
} from '@divan/core';
import type { BookingConfirmService } from './booking-confirm.service';
import type { BookingHoldsService } from './booking-holds.service';
import type { BookingManageService } from './booking-manage.service';

const tags = ['booking'];
const B = '/api/v1/public/bookings/:token';

/**
 * Booking on the public page, without an account: hold a slot (a code is mailed), confirm it with the
 * code, then read, cancel or move the booking through the mailed link. Rate limited per IP; holds more
 * tightly (each one mails), and per email in the service.
 */
export async function bookingFlowRoutes(
  app: FastifyInstance,
  d: { holds: BookingHoldsService; confirm: BookingConfirmService; manage: BookingManageService; perIpPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pub = { access: 'public' as const, rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } };
  const holds = { access: 'public' as const, rateLimit: { max: Math.max(5, Math.floor(d.perIpPerMinute / 3)), timeWindow: 60_000 } };

  r.post(
    '/api/v1/public/reservations/:workspaceId/:therapistId/:serviceId/holds',
    {
      config: holds,
      schema: {
        operationId: 'createBookingHold',
        tags,
        description: `Holds one of the service's free slots for the visitor and mails them a six-digit code. Name, email and phone are all needed (\`public_service_patient_data_missing\`); the answer is the same whoever the email belongs to.`,
        params: publicServiceParams,
        body: createBookingHoldBody,
        response: { 201: bookingHoldResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await d.holds.hold(req.params, req.body)),
  );
  r.post(
    '/api/v1/public/booking-holds/:holdId/confirm',
    {
      config: pub,
      schema: {
        operationId: 'confirmBookingHold',
        tags,
        description:
          'Books the held slot once the mailed code proves the email: the patient file of that email (or a new one), the session, the confirmation mail with its invitation and manage link.',
        params: bookingHoldParams,
        body: confirmBookingHoldBody,
        response: { 200: bookingConfirmResponse },
      },
    },
    (req) => d.confirm.confirm(req.params.holdId, req.body.code),
  );
  r.get(
    B,
    {
      config: pub,
      schema: {
        operationId: 'getPublicBooking',
        tags,
        description: 'The booking behind a mailed manage link.',
        params: publicBookingTokenParams,
        response: { 200: publicBookingResponse },
      },
    },
    async (req) => ({
      booking: await d.manage.get(req.params.token),
    }),
  );
  r.post(
    `${B}/cancel`,
    {
      config: pub,
      schema: {
        operationId: 'cancelPublicBooking',
        tags,
        description: "Cancels the booking, until the service's minimum notice before it.",
        params: publicBookingTokenParams,
        response: { 200: publicBookingResponse },
      },
    },
    async (req) => ({ booking: await d.manage.cancel(req.params.token) }),
  );
  r.post(
    `${B}/move`,
    {
      config: pub,
      schema: {
        operationId: 'movePublicBooking',
        tags,
        description: "Moves the booking to another free slot of the same service, until the service's minimum notice before it.",
        params: publicBookingTokenParams,
        body: movePublicBookingBody,
        response: { 200: publicBookingResponse },
      },
    },
    async (req) => ({ booking: await d.manage.move(req.params.token, req.body.startsAt) }),
  );
}

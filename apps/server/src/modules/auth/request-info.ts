import type { FastifyRequest } from 'fastify';
import { userAgentOf, type DeviceInfo } from '@divan/core';

/** Where a sign-in comes from, for the device session and the audit: the caller's IP and browser. */
export const requestInfo = (req: FastifyRequest) => ({ ip: req.ip, userAgent: userAgentOf(req.headers['user-agent']) });

/** The device fields of a sign-in body (spec §7), and nothing else of it. */
export const deviceOf = ({ appVersion, deviceManufacturer, deviceModel, platformType, platformVersion }: DeviceInfo): DeviceInfo => ({
  appVersion,
  deviceManufacturer,
  deviceModel,
  platformType,
  platformVersion,
});

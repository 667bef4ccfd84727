import { APP_VERSION, type DeviceInfo } from '@divan/core';

const buildId = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

/** Device info of spec §3, sent with every auth call (body or query). */
export const deviceInfo: DeviceInfo = {
  appVersion: APP_VERSION,
  deviceManufacturer: 'unknown',
  deviceModel: 'unknown',
  platformType: 'web',
  platformVersion: `${APP_VERSION}+${buildId}`,
};

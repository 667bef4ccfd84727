// Issue 24: the software producer every VERI*FACTU record names is configuration, never a placeholder in
// production: a wrong value stops start-up with one line naming the variable, and production sending to
// the AEAT refuses to start without every value.
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { DEV_VERIFACTU_PRODUCER } from './verifactu-producer';

const base = { DATA_DIR: '/tmp/divan-producer-test', APP_SECRET: 'x'.repeat(32) };
const PRODUCER = {
  VERIFACTU_PRODUCER_NAME: 'Diván Software SL',
  VERIFACTU_PRODUCER_NIF: 'b-87654323',
  VERIFACTU_SYSTEM_ID: 'd1',
  VERIFACTU_SYSTEM_VERSION: '2.4.0',
  VERIFACTU_INSTALLATION_NUMBER: 'divan-cloud-01',
};
const AEAT_URL = 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP';

describe('VERIFACTU_PRODUCER_* and the system’s identity', () => {
  it('are read, normalised, into what every record says of the software', () => {
    expect(loadConfig({ ...base, ...PRODUCER }).verifactuProducer).toEqual({
      name: 'Diván Software SL',
      taxId: 'B87654323',
      systemId: 'D1',
      version: '2.4.0',
      installationNumber: 'divan-cloud-01',
    });
  });

  it('default outside production to development values that say they are not valid for the AEAT', () => {
    expect(loadConfig(base).verifactuProducer).toEqual(DEV_VERIFACTU_PRODUCER);
    expect(DEV_VERIFACTU_PRODUCER.name).toMatch(/no válido ante la AEAT/);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).verifactuProducer).toEqual(DEV_VERIFACTU_PRODUCER); // not sending: nothing names it
  });

  it('stop start-up with one line naming the variable when a value is wrong', () => {
    expect(() => loadConfig({ ...base, ...PRODUCER, VERIFACTU_PRODUCER_NIF: 'B87654324' })).toThrow(
      'Invalid environment variable VERIFACTU_PRODUCER_NIF: must be a Spanish NIF (9 characters) whose control character is right',
    );
    expect(() => loadConfig({ ...base, ...PRODUCER, VERIFACTU_SYSTEM_ID: 'D12' })).toThrow(
      'Invalid environment variable VERIFACTU_SYSTEM_ID: must be 1 or 2 letters or digits',
    );
    expect(() => loadConfig({ ...base, ...PRODUCER, VERIFACTU_PRODUCER_NAME: 'x'.repeat(121) })).toThrow(
      'Invalid environment variable VERIFACTU_PRODUCER_NAME: must be at most 120 characters',
    );
    expect(() => loadConfig({ ...base, ...PRODUCER, VERIFACTU_INSTALLATION_NUMBER: 'x'.repeat(101) })).toThrow(
      /^Invalid environment variable VERIFACTU_INSTALLATION_NUMBER/,
    );
  });

  it('are each required in production when records are sent to the AEAT', () => {
    for (const name of Object.keys(PRODUCER)) {
      const env = { ...base, ...PRODUCER, NODE_ENV: 'production', VERIFACTU_AEAT_URL: AEAT_URL, [name]: '' };
      expect(() => loadConfig(env)).toThrow(`Invalid environment variable ${name}: required in production with VERIFACTU_AEAT_URL`);
    }
  });
});

import { normalizeTaxId } from '@divan/core';

/** The software producer and installation a VERI*FACTU record names (SistemaInformatico). */
export type VerifactuProducerConfig = { name: string; taxId: string; systemId: string; version: string; installationNumber: string };

/** Development only: the AEAT refuses these (no such producer), so production cannot send with them (config.ts). */
export const DEV_VERIFACTU_PRODUCER: VerifactuProducerConfig = {
  name: 'Diván (desarrollo: no válido ante la AEAT)',
  taxId: 'B00000000',
  systemId: '00',
  version: '0.0-desarrollo',
  installationNumber: 'desarrollo',
};

type ProducerEnv = {
  VERIFACTU_PRODUCER_NAME?: string;
  VERIFACTU_PRODUCER_NIF?: string;
  VERIFACTU_SYSTEM_ID?: string;
  VERIFACTU_SYSTEM_VERSION?: string;
  VERIFACTU_INSTALLATION_NUMBER?: string;
};

/** The producer from the (already checked) environment, each value unset taken from the development one; `missing`: the first variable unset. */
export function verifactuProducer(e: ProducerEnv): { producer: VerifactuProducerConfig; missing?: keyof ProducerEnv } {
  const given: [keyof ProducerEnv, keyof VerifactuProducerConfig, string | undefined][] = [
    ['VERIFACTU_PRODUCER_NAME', 'name', e.VERIFACTU_PRODUCER_NAME],
    ['VERIFACTU_PRODUCER_NIF', 'taxId', e.VERIFACTU_PRODUCER_NIF && normalizeTaxId(e.VERIFACTU_PRODUCER_NIF)],
    ['VERIFACTU_SYSTEM_ID', 'systemId', e.VERIFACTU_SYSTEM_ID?.toUpperCase()],
    ['VERIFACTU_SYSTEM_VERSION', 'version', e.VERIFACTU_SYSTEM_VERSION],
    ['VERIFACTU_INSTALLATION_NUMBER', 'installationNumber', e.VERIFACTU_INSTALLATION_NUMBER],
  ];
  const producer = Object.fromEntries(
    given.map(([, key, value]) => [key, value || DEV_VERIFACTU_PRODUCER[key]]),
  ) as VerifactuProducerConfig;
  return { producer, missing: given.find(([, , value]) => !value)?.[0] };
}

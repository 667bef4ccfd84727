/**
 * The calls of «Consentimientos» and «Facturas» (and the saved card), through api.ts's `call`; the
 * PDFs as bytes with the patient's bearer (refreshed once when refused), since a link cannot carry it.
 */
import { APP_VERSION, type CompanionCard, type CompanionConsent, type CompanionInvoice, type CompanionUrl } from '@divan/core';
import { call } from './api';
import { toFailure } from './errors';
import { accessToken, refresh } from './session';

const seg = encodeURIComponent;
const filePath = (fileId: string) => `/patient/files/${seg(fileId)}`;

async function pdf(path: string): Promise<Blob> {
  const get = async (bearer: string | null) => {
    try {
      return await fetch(`/api/v1${path}`, {
        headers: { Accept: 'application/pdf', 'X-Client-Version': APP_VERSION, ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
      });
    } catch {
      throw toFailure(0, null);
    }
  };
  let res = await get(await accessToken());
  if (res.status === 401) res = await get(await refresh());
  if (!res.ok) throw toFailure(res.status, await res.json().catch(() => null));
  return res.blob();
}

export const consentsApi = {
  /** Newest first. */
  list: async (fileId: string, signal?: AbortSignal) =>
    (await call<{ items: CompanionConsent[] }>(`${filePath(fileId)}/consents`, { signal })).items,
  /** The signing page of the patient's signature. */
  signLink: async (fileId: string, envelopeId: string) =>
    (await call<CompanionUrl>(`${filePath(fileId)}/consents/${seg(envelopeId)}/sign-link`, { method: 'POST' })).url,
  download: (fileId: string, envelopeId: string) => pdf(`${filePath(fileId)}/consents/${seg(envelopeId)}/download`),
};

export const invoicesApi = {
  /** Latest first. */
  list: async (fileId: string, signal?: AbortSignal) =>
    (await call<{ items: CompanionInvoice[] }>(`${filePath(fileId)}/invoices`, { signal })).items,
  pdf: (fileId: string, invoiceId: string) => pdf(`${filePath(fileId)}/invoices/${seg(invoiceId)}/pdf`),
  /** A card checkout; it comes back to …/facturas?estado=pagado. */
  pay: async (fileId: string, invoiceId: string) =>
    (await call<CompanionUrl>(`${filePath(fileId)}/invoices/${seg(invoiceId)}/pay`, { method: 'POST' })).url,
};

export const cardApi = {
  get: (fileId: string, signal?: AbortSignal) => call<CompanionCard>(`${filePath(fileId)}/card`, { signal }),
  /** A checkout to save (or replace) the card; it comes back to …/facturas?estado=tarjeta. */
  setup: async (fileId: string) => (await call<CompanionUrl>(`${filePath(fileId)}/card/setup`, { method: 'POST' })).url,
  autoCharge: (fileId: string, enabled: boolean) =>
    call<CompanionCard>(`${filePath(fileId)}/card/auto-charge`, { method: 'PUT', body: { enabled } }),
  remove: (fileId: string) => call<CompanionCard>(`${filePath(fileId)}/card`, { method: 'DELETE' }),
};

/** Leaves the companion for a checkout or the signing page (same tab: they come back here). */
export const goTo = (url: string) => window.location.assign(url);

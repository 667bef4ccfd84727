import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { errorMessage, type CreateConsentTemplateBody, type SentConsent, type SignConsentBody } from '@divan/core';
import { json, type TestApp } from '../../test/test-app';
import { png } from '../../test/images';
import type { Therapist } from '../../test/workspace-fixtures';

/** Shared by the consent envelope tests: templates, patients, sending and signing through the API. */
export const DRAWN = `data:image/png;base64,${png(300, 100).toString('base64')}`;

export const MINOR_TEMPLATE: CreateConsentTemplateBody = {
  name: 'Tratamiento de menores',
  documentTitle: 'Consentimiento para el tratamiento de {{paciente.nombre}}',
  data: { guardian: ['fullName', 'idNumber'], secondGuardian: ['fullName', 'idNumber'] },
  sections: [
    { title: 'Tratamiento', body: '<p>Atención psicológica con {{terapeuta.nombre}} en {{espacio.nombre}}.</p>' },
    { title: 'Grabación', body: '<p>Solo con permiso.</p>', checkbox: { label: 'Acepto la grabación de sesiones', required: false } },
    { title: 'Declaración', body: '<p>Fecha: {{fecha}}</p>', checkbox: { label: 'He leído y acepto', required: true } },
  ],
  signatures: { guardian: true, secondGuardian: true, therapist: true },
  therapistSignature: DRAWN,
};

export const ADULT_TEMPLATE: CreateConsentTemplateBody = {
  name: 'Consentimiento informado',
  documentTitle: 'Consentimiento informado de {{paciente.nombre}}',
  data: { patient: ['fullName', 'email'] },
  sections: [
    { title: 'Tratamiento', body: '<p>Atención psicológica.</p>' },
    { title: 'Datos', body: '<p>RGPD.</p>', checkbox: { label: 'Acepto el tratamiento de mis datos', required: true } },
  ],
  signatures: { patient: true },
};

export function expectRefused(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const b = json<{ code: string; message: string }>(res);
  expect(b.code).toBe(code);
  if (!code.startsWith('consent_not_found') && code !== 'invalid_argument') expect(b.message.length).toBeGreaterThan(5);
  return b;
}
export const catalogue = errorMessage;

export function consentKit(t: TestApp, ws: () => string, owner: () => Therapist) {
  const W = () => `/api/v1/workspaces/${ws()}`;
  return {
    async template(body: CreateConsentTemplateBody, who = owner()) {
      const res = await t.post(`${W()}/consent-templates`, body, { token: who.accessToken });
      expect(res.statusCode, res.body).toBe(201);
      return json<{ id: string }>(res).id;
    },
    async patient(body: { firstName: string; lastName?: string; email?: string; birthdate?: string }, who = owner()) {
      const res = await t.post(`${W()}/patients`, body, { token: who.accessToken });
      expect(res.statusCode, res.body).toBe(201);
      return json<{ id: string }>(res).id;
    },
    send: (body: unknown, who = owner()) =>
      t.post(`${W()}/consents`, body, { token: who.accessToken, headers: { 'user-agent': 'Terapeuta/1.0' } }),
    async sent(body: unknown, who = owner()) {
      const res = await this.send(body, who);
      expect(res.statusCode, res.body).toBe(201);
      return json<SentConsent>(res);
    },
    view: (token: string, ua = 'Movil/1.0') => t.get(`/api/v1/public/consents/${token}`, { headers: { 'user-agent': ua } }),
    sign: (token: string, body: SignConsentBody, ua = 'Movil/1.0') =>
      t.post(`/api/v1/public/consents/${token}/sign`, body, { headers: { 'user-agent': ua } }),
  };
}

export const tokenOf = (url: string) => {
  const path = url.split('?')[0]!;
  return path.slice(path.lastIndexOf('/') + 1);
};
/** The signing link in the newest mail to `to`. */
export async function mailedToken(t: TestApp, to: string) {
  const mail = await t.lastMail(to);
  const m = /\/consents\/sign\/([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m) throw new Error(`no signing link in the mail to ${to}`);
  return m[1]!;
}

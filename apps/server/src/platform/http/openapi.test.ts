import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from '../../test/test-app';

type Operation = { operationId?: string; security?: Record<string, string[]>[]; 'x-permission'?: Record<string, string> };
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
};

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp();
  doc = json<Doc>(await t.get('/api/v1/openapi.json'));
});
afterAll(() => t?.close());

/** `/api/v1/workspaces/:workspaceId/x` as the document writes it. */
const docPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document states who may call each route', () => {
  it('declares the bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('gives every authenticated route a security requirement and every workspace route its permission', () => {
    const routes = t.app.declaredRoutes().filter((r) => r.method !== 'HEAD' && doc.paths[docPath(r.url)]?.[r.method.toLowerCase()]);
    const workspaceRoutes = routes.filter((r) => typeof r.access === 'object');
    expect(workspaceRoutes.length).toBeGreaterThan(20);
    for (const r of routes) {
      const op = doc.paths[docPath(r.url)]![r.method.toLowerCase()]!;
      const where = `${r.method} ${r.url}`;
      if (r.access === 'public') {
        expect(op.security, where).toBeUndefined();
        expect(op['x-permission'], where).toBeUndefined();
      } else if (r.access === 'refresh') expect(op.security, where).toEqual([{ refreshToken: [] }]);
      else if (r.access === 'patient') expect(op.security, where).toEqual([{ patientBearerAuth: [] }]);
      else expect(op.security, where).toEqual([{ bearerAuth: [] }]);
      if (typeof r.access === 'object') {
        const need = r.access.workspace;
        expect(op['x-permission'], where).toEqual(Array.isArray(need) ? { action: need[0], subject: need[1] } : { membership: need });
      }
    }
  });

  it('for instance, creating a patient needs create on patient_files', () => {
    const op = doc.paths['/api/v1/workspaces/{workspaceId}/patients']!.post!;
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(op['x-permission']).toEqual({ action: 'create', subject: 'patient_files' });
  });
});

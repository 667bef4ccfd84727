import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundaryProblem } from './eslint-boundaries.js';

const root = path.resolve(import.meta.dirname, '..');
const at = (p) => path.join(root, p);

describe('feature and module boundaries', () => {
  it('a web feature may not import another feature, by alias or by path', () => {
    const file = at('apps/web/src/features/members/components/member-row.tsx');
    expect(boundaryProblem(file, '@/features/patients/api/patients-api')).toMatch(/"members" no importa la feature "patients"/);
    expect(boundaryProblem(file, '../../roles/utils/permission-matrix')).toMatch(/"roles"/);
    expect(boundaryProblem(file, '../api/members-api')).toBeNull();
    expect(boundaryProblem(file, '@/lib/format')).toBeNull();
    expect(boundaryProblem(file, '@divan/core')).toBeNull();
    expect(boundaryProblem(at('apps/web/src/app/router.tsx'), '@/features/patients/list/patients-page')).toBeNull();
  });

  it('the companion and the booking pages share only public-kit/, which imports neither', () => {
    const companion = at('apps/web/src/companion/session-move.tsx');
    const booking = at('apps/web/src/public-booking/manage-move.tsx');
    const kit = at('apps/web/src/public-kit/slot-move.tsx');
    expect(boundaryProblem(companion, '../public-booking/slot-picker')).toMatch(/"companion" no importa "public-booking"/);
    expect(boundaryProblem(companion, '@/public-booking/format')).toMatch(/public-kit/);
    expect(boundaryProblem(booking, '../companion/session-format')).toMatch(/"public-booking" no importa "companion"/);
    expect(boundaryProblem(kit, '../public-booking/api')).toMatch(/"public-kit" no importa "public-booking"/);
    expect(boundaryProblem(kit, '../companion/ui')).toMatch(/"public-kit" no importa "companion"/);
    expect(boundaryProblem(companion, '../public-kit/slot-move')).toBeNull();
    expect(boundaryProblem(booking, '../public-kit/slot-picker')).toBeNull();
    expect(boundaryProblem(booking, './errors')).toBeNull();
    expect(boundaryProblem(at('apps/web/src/features/patients/connect/connect-card.tsx'), '@/lib/format')).toBeNull();
  });

  it("a server module may not use another module's repository or tables, except tables naming tables", () => {
    const service = at('apps/server/src/modules/patient-import/patient-import.service.ts');
    expect(boundaryProblem(service, '../patients/patients.repository')).toMatch(
      /"patient-import" no usa el repositorio ni las tablas de "patients"/,
    );
    expect(boundaryProblem(service, '../patients/patients.tables')).toMatch(/tablas/);
    expect(boundaryProblem(service, '../patients/patients.service')).toBeNull();
    expect(boundaryProblem(service, './patient-import.tables')).toBeNull();
    expect(boundaryProblem(at('apps/server/src/modules/patients/patients.tables.ts'), '../users/users.tables')).toBeNull();
    expect(boundaryProblem(service, '../../platform/db/database')).toBeNull();
  });
});

// A vitest reporter beside `json` (vitest.config.ts, with TEST_REPORT=<file>.json): each test file's whole
// time — import, set-up hooks and tests — and its project, into <file>.files.json. vitest's JSON report
// times only the tests themselves, so a file whose time goes into beforeAll (an app, records) looks fast there.
// `from` and `to`: when the file was queued and when it ended, seconds into the run (how full the workers were).
import { writeFileSync } from 'node:fs';

export default class FileTimesReporter {
  t0 = performance.now();
  spans = new Map();
  onTestRunStart() {
    this.t0 = performance.now();
  }
  onTestModuleQueued(m) {
    this.spans.set(m.moduleId, { from: (performance.now() - this.t0) / 1000 });
  }
  onTestModuleEnd(m) {
    const span = this.spans.get(m.moduleId);
    if (span) span.to = (performance.now() - this.t0) / 1000;
  }
  onTestRunEnd(testModules) {
    const report = process.env.TEST_REPORT;
    if (!report) return;
    const rows = testModules.map((m) => {
      const d = m.diagnostic();
      return {
        file: m.moduleId,
        project: m.project.name,
        seconds: (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000,
        tests: [...m.children.allTests()].length,
        state: m.state(),
        ...this.spans.get(m.moduleId),
      };
    });
    writeFileSync(report.replace(/\.json$/, '') + '.files.json', JSON.stringify(rows, null, 1));
  }
}

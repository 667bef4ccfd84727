import { cpus } from 'node:os';
import { runCleanups } from './lifecycle';
import type { Report } from './report';
import { stopAll } from './servers';

/**
 * A bench's life around its `main`: servers stopped and temporary data removed once, also on Ctrl-C;
 * a failure recorded in the report rather than thrown; the table printed, the results written (the
 * database URL's credentials left out), and the exit code non-zero when anything failed.
 */
export async function runBench(
  main: () => Promise<void>,
  o: { report: Report; config: Record<string, unknown> & { adminUrl: string }; resultsFile: string; sharing: string },
): Promise<never> {
  let cleaning: Promise<void> | undefined;
  const cleanup = () => (cleaning ??= stopAll().then(runCleanups));
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.log(`\n${signal}: stopping servers and removing temporary data…`);
      void cleanup().then(() => process.exit(130));
    });
  try {
    await main();
  } catch (err) {
    o.report.fail('bench', err);
  } finally {
    await cleanup();
  }
  o.report.print();
  o.report.write({ ...o.config, adminUrl: o.config.adminUrl.replace(/\/\/[^@/]*@/, '//…@') }, o.resultsFile);
  console.log(`\nOn ${cpus().length} cores ${o.sharing} share the CPU. Results: ${o.resultsFile}`);
  process.exit(o.report.errors.length ? 1 : 0);
}

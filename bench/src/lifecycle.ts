/** Clean-up steps registered as resources are made (temporary dirs, databases); run newest first, once. */
const steps: { what: string; fn: () => Promise<void> | void }[] = [];

export function atCleanup(what: string, fn: () => Promise<void> | void): void {
  steps.push({ what, fn });
}

export async function runCleanups(): Promise<void> {
  while (steps.length) {
    const step = steps.pop()!;
    try {
      await step.fn();
    } catch (err) {
      console.warn(`  ! clean-up "${step.what}" failed: ${(err as Error).message}`);
    }
  }
}

/**
 * Step-up (issue 32): a sensitive action answered `step_up_required` asks the person for a second factor, then is
 * retried. The dialog that asks registers itself here (features/auth), so the API client imports no feature.
 */
type Handler = () => Promise<boolean>;
let handler: Handler | null = null;

export function setStepUpHandler(next: Handler): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

/** True once the person has proved a second factor; false when they cancelled (or nothing can ask). */
export const requestStepUp = (): Promise<boolean> => (handler ? handler() : Promise.resolve(false));

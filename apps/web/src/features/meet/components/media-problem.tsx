import { CameraOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { MediaProblem } from '../utils/media';

/** Why there is no camera or microphone, and a way to ask again. */
export function MediaProblemNotice({ problem, onRetry, busy }: { problem: MediaProblem; onRetry: () => void; busy?: boolean }) {
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-amber-300/40 bg-amber-50 px-4 py-3 text-sm leading-relaxed text-amber-950 dark:bg-amber-950/40 dark:text-amber-50"
    >
      <CameraOff className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="grid gap-2">
        <p>{problem.message}</p>
        {problem.kind !== 'unsupported' ? (
          <Button type="button" size="sm" variant="outline" className="justify-self-start text-foreground" onClick={onRetry} loading={busy}>
            Reintentar
          </Button>
        ) : null}
      </div>
    </div>
  );
}

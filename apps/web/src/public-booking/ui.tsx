/** The booking pages' pieces: the public bundles' kit (public-kit/ui.tsx) and a page's skeleton. */
import { Skeleton } from '../public-kit/ui';

export * from '../public-kit/ui';

/** A page while its data loads: a title, a person, two cards. */
export function PageSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true" aria-label="Cargando">
      <Skeleton className="h-9 w-2/3" />
      <div className="flex items-start gap-4">
        <Skeleton className="size-16 rounded-full" />
        <div className="grid flex-1 gap-2">
          <Skeleton className="h-6 w-1/2" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-4/5" />
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Skeleton className="h-40 rounded-xl" />
        <Skeleton className="h-40 rounded-xl" />
      </div>
    </div>
  );
}

import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useRoutes } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { LearningLayout } from '@/features/learning/components/learning-layout';

const page = (load: () => Promise<{ Component: ComponentType }>) => lazy(() => load().then((m) => ({ default: m.Component })));

const Library = page(() => import('@/features/learning/routes/library-route'));
const Home = page(() => import('@/features/learning/routes/home-route'));
const Video = page(() => import('@/features/learning/routes/video-route'));
const Upload = page(() => import('@/features/learning/routes/upload-route'));
const NotFound = page(() => import('@/features/errors/routes/not-found'));

/**
 * /learn/*: the training library (spec §2), as descendant routes like the workspace settings: each page
 * its own chunk (the video page stays small), their lists out of the entry (bundle-budget.md).
 */
export function LearningRoutes() {
  const element = useRoutes([
    { index: true, element: <Navigate to="library" replace /> },
    { path: 'library', element: <Library /> },
    { path: 'home', element: <Home /> },
    { path: '_upload', element: <Upload /> },
    { path: 'video/:id', element: <Video /> },
    { path: '*', element: <NotFound /> },
  ]);
  return (
    <LearningLayout>
      <Suspense fallback={<PageSpinner />}>{element}</Suspense>
    </LearningLayout>
  );
}

export { LearningRoutes as Component };

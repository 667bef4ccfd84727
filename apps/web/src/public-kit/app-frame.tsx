import { Component, Suspense, type ReactNode } from 'react';
import { ErrorState } from './ui';

type Props = {
  /** The bundle's page frame around what shows while a page's code loads or when it fails. */
  frame: (children: ReactNode) => ReactNode;
  /** What shows while a page's code loads. */
  loading: ReactNode;
  children: ReactNode;
};

/** A bundle's page, its code loaded with its route: a skeleton meanwhile, and a reload offered when it does not arrive. */
export function AppFrame({ frame, loading, children }: Props) {
  return (
    <LoadFailure
      fallback={frame(
        <ErrorState
          message="No se ha podido cargar la página. Comprueba tu conexión y vuelve a intentarlo."
          retry={() => location.reload()}
        />,
      )}
    >
      <Suspense fallback={frame(loading)}>{children}</Suspense>
    </LoadFailure>
  );
}

/** A page's code that did not arrive (offline, or a new version deployed meanwhile): say so, offer a reload. */
class LoadFailure extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

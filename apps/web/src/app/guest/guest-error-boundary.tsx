import { Component, type ReactNode } from 'react';
import { RotateCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { isStaleChunk, reloadOnce } from '@/lib/stale-chunk';

/** The guest entry's error boundary (the router's errorElement is not there): a stale chunk reloads once. */
export class GuestErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    if (isStaleChunk(error) && reloadOnce()) return;
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert variant="error">
        <p>No hemos podido mostrar esta página. Tus datos están a salvo; recarga para volver a intentarlo.</p>
        <Button type="button" variant="outline" size="sm" className="mt-3" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden /> Recargar
        </Button>
      </Alert>
    );
  }
}

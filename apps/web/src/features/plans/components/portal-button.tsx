import type { ComponentProps, ReactNode } from 'react';
import { CreditCard } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/error-message';
import { useOpenPortal } from '../api/plans-api';

type Props = {
  wid: string;
  children: ReactNode;
  /** A new attempt: the caller clears the last failure it shows. */
  onOpen?: () => void;
  /** Why the portal could not be opened, for the caller to show where it shows errors. */
  onError: (message: string) => void;
} & Pick<ComponentProps<typeof Button>, 'variant' | 'className' | 'disabled' | 'aria-describedby'>;

/**
 * Cards and receipts live on the provider's Customer Portal (POST …/billing/portal): no card form in Diván.
 * The button spins until the browser has left for it. Ajustes › Plan's «Tarjetas y recibos», Ajustes › Pagos'
 * «Gestionar tarjetas».
 */
export function PortalButton({ wid, children, onOpen, onError, variant = 'outline', ...button }: Props) {
  const portal = useOpenPortal(wid);
  const open = () => {
    onOpen?.();
    portal.mutate(undefined, { onError: (e) => onError(messageOf(e)) });
  };
  return (
    <Button type="button" variant={variant} loading={portal.isPending || portal.isSuccess} onClick={open} {...button}>
      <CreditCard aria-hidden /> {children}
    </Button>
  );
}

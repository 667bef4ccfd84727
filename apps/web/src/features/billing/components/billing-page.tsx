import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { cn } from '@/lib/cn';

type Props = { title: string; description?: string; badges?: ReactNode; width?: 'max-w-5xl' | 'max-w-6xl'; children: ReactNode };

/** A billing screen under /billing: the way back, its title (and badges), a line saying what it is for. */
export function BillingPage({ title, description, badges, width = 'max-w-5xl', children }: Props) {
  return (
    <div className={cn('mx-auto grid w-full grid-cols-[minmax(0,1fr)] gap-6', width)}>
      <header className="grid gap-2">
        <Link to="/billing" className="inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden /> Facturación
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="font-display text-3xl font-semibold tracking-tight">{title}</h1>
          {badges}
        </div>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </header>
      {children}
    </div>
  );
}

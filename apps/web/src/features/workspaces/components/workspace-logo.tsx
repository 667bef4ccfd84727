import { cn } from '@/lib/cn';

/** The workspace's square logo, or its initial on the accent colour when it has none. */
export function WorkspaceLogo({ name, url, className = 'size-8 text-sm' }: { name: string; url: string | null; className?: string }) {
  const initial = name.trim().charAt(0).toUpperCase() || '·';
  return (
    <span
      className={cn(
        'inline-grid shrink-0 place-items-center overflow-hidden rounded-lg bg-primary font-semibold text-primary-foreground',
        className,
      )}
    >
      {url ? <img src={url} alt="" className="size-full bg-card object-cover" /> : <span aria-hidden>{initial}</span>}
    </span>
  );
}

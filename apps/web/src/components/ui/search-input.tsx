import type { ComponentProps } from 'react';
import { Search } from 'lucide-react';
import { Input } from './input';

/** A list's search box: the magnifier inside, 100 characters at most. `className` places the box. */
export function SearchInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <div className={className ? `relative ${className}` : 'relative'}>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input type="search" className="pl-9" maxLength={100} {...props} />
    </div>
  );
}

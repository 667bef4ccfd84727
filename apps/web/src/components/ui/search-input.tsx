import type { ComponentProps } from 'react';
import { Search } from 'lucide-react';
import { useSearchText } from '@/lib/use-url-search-text';
import { Input } from './input';

type Props = Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange'> & {
  /** The search the address holds; the box follows it (Back/forward, «Limpiar filtros»). */
  value: string;
  /** Writes the typed text once the user pauses; stable (the list replaces its entry in the history). */
  onSearch: (text: string) => void;
};

/** A list's search box kept in step with the address: the magnifier inside, 100 characters at most. `className` places the box. */
export function SearchInput({ value, onSearch, className, ...props }: Props) {
  const [text, setText] = useSearchText(value, onSearch);
  return (
    <div className={className ? `relative ${className}` : 'relative'}>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input type="search" className="pl-9" maxLength={100} value={text} onChange={(e) => setText(e.target.value)} {...props} />
    </div>
  );
}

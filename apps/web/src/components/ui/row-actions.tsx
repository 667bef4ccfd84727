import type { ReactNode } from 'react';
import { MoreHorizontal } from 'lucide-react';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from './dropdown-menu';

/** A list row's «…» menu with one action that takes something away (archive, revoke): `label` names the row for screen readers. */
export function RowDangerAction({
  label,
  icon,
  action,
  onSelect,
}: {
  label: string;
  icon: ReactNode;
  action: string;
  onSelect: () => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="grid size-8 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
        aria-label={label}
      >
        <MoreHorizontal className="size-4" aria-hidden />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={onSelect} className="text-destructive">
          {icon} {action}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

import { useContext, type ComponentProps } from 'react';
import { DropdownMenu as Menu } from 'radix-ui';
import { Check } from 'lucide-react';
import { cn } from '@/lib/cn';
import { FocusFirstItemContext } from './lazy-menu';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuRadioGroup = Menu.RadioGroup;

export function DropdownMenuContent({ className, sideOffset = 6, onFocus, ...props }: ComponentProps<typeof Menu.Content>) {
  const focusFirst = useContext(FocusFirstItemContext);
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        onFocus={(event) => {
          onFocus?.(event);
          // Radix focuses the menu itself on open, and its first item when the key that opened it
          // reached Radix. LazyMenu's first open came before Radix loaded: move on to the first item here.
          if (!focusFirst?.current || event.target !== event.currentTarget) return;
          focusFirst.current = false;
          event.currentTarget.querySelector<HTMLElement>('[role^="menuitem"]:not([data-disabled])')?.focus();
        }}
        className={cn('z-50 min-w-44 overflow-hidden rounded-lg border bg-card p-1 text-card-foreground shadow-lg', className)}
        {...props}
      />
    </Menu.Portal>
  );
}

const itemClass =
  'relative flex cursor-default select-none items-center gap-2 rounded-md px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-muted data-[disabled]:opacity-50 [&_svg]:size-4 [&_svg]:text-muted-foreground';

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return <Menu.Item className={cn(itemClass, className)} {...props} />;
}

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className={cn(itemClass, 'pr-8', className)} {...props}>
      {children}
      <Menu.ItemIndicator className="absolute right-2.5 inline-flex">
        <Check className="!text-primary" aria-hidden />
      </Menu.ItemIndicator>
    </Menu.RadioItem>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-2.5 py-2', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />;
}

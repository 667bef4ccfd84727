import { Dialog, DialogTitle, SheetContent } from '@/components/ui/dialog';
import { Logo } from '@/components/ui/logo';
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher';
import { SidebarNav } from './sidebar';

/** The sidebar as a sheet on phones. Loaded the first time the menu button is pressed (see ShellLayout). */
export function MobileNav({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <SheetContent
        aria-describedby={undefined}
        // The sheet has no Radix trigger (it loads on first press): give focus back to the menu button.
        onCloseAutoFocus={(event) => {
          const trigger = document.querySelector<HTMLElement>('[data-mobile-menu-trigger]');
          if (!trigger) return;
          event.preventDefault();
          trigger.focus();
        }}
      >
        <DialogTitle className="sr-only">Menú</DialogTitle>
        <div className="flex h-16 items-center px-5">
          <Logo />
        </div>
        <div className="px-3">
          <WorkspaceSwitcher onNavigate={() => onOpenChange(false)} />
        </div>
        <div className="px-3 py-4">
          <SidebarNav onNavigate={() => onOpenChange(false)} />
        </div>
      </SheetContent>
    </Dialog>
  );
}

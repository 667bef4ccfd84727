import { Menu, Search } from 'lucide-react';
import type { Profile } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { useChatUnreadTotal } from '@/features/chat/api/use-chat-live';
import { ThemeMenu } from './theme-menu';
import { UserMenu } from './user-menu';

type Props = { profile: Profile | null; onOpenMenu: () => void; onOpenPalette: () => void; onPreloadPalette: () => void };

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function TopBar({ profile, onOpenMenu, onOpenPalette, onPreloadPalette }: Props) {
  // On a phone the sidebar (and its «Chats» badge) is behind the menu: a dot says there is something unread.
  const unread = useChatUnreadTotal();
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur sm:px-6">
      <Button
        variant="ghost"
        size="icon"
        className="relative md:hidden"
        onClick={onOpenMenu}
        aria-label={unread ? `Abrir menú (${unread === 1 ? '1 mensaje sin leer' : `${unread} mensajes sin leer`})` : 'Abrir menú'}
        data-mobile-menu-trigger=""
      >
        <Menu className="!size-5" aria-hidden />
        {unread ? (
          <span aria-hidden className="absolute right-1.5 top-1.5 size-2.5 rounded-full bg-primary ring-2 ring-background" />
        ) : null}
      </Button>
      <div className="md:hidden">
        <Logo showName={false} />
      </div>
      <button
        type="button"
        onClick={onOpenPalette}
        onPointerEnter={onPreloadPalette}
        onFocus={onPreloadPalette}
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
        className="ml-1 flex h-9 min-w-0 flex-1 items-center gap-2 rounded-lg border bg-card px-3 text-sm text-muted-foreground shadow-xs hover:bg-muted sm:max-w-xs"
      >
        <Search className="size-4 shrink-0" aria-hidden />
        <span className="truncate">Buscar o ir a…</span>
        <kbd className="ml-auto hidden rounded border bg-muted px-1.5 font-sans text-[0.6875rem] font-medium sm:inline">
          {isMac ? '⌘' : 'Ctrl'} K
        </kbd>
      </button>
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <ThemeMenu />
        <UserMenu profile={profile} />
      </div>
    </header>
  );
}

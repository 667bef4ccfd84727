import { ChevronDown } from 'lucide-react';
import type { Profile } from '@divan/core';
import { Avatar } from '@/components/ui/avatar';
import { LazyMenu } from '@/components/ui/lazy-menu';
import { useSignOut } from '@/features/auth/api/account-api';

const loadItems = () => import('./user-menu-items');

/** The avatar menu: profile, security, appearance, sign out. Its code loads on first use (see LazyMenu). */
export function UserMenu({ profile }: { profile: Profile | null }) {
  const name = profile ? [profile.firstName, profile.lastName].filter(Boolean).join(' ') : '';
  // Here, not in the items: the menu closes (and its items unmount) while signing out.
  const signOut = useSignOut();
  return (
    <LazyMenu
      load={loadItems}
      props={{ profile, name, onSignOut: () => signOut.mutate(undefined), signingOut: signOut.isPending }}
      trigger={
        <button type="button" className="flex items-center gap-2 rounded-full py-1 pl-1 pr-1 text-sm hover:bg-muted sm:pr-2.5">
          {/* The visible name stays part of the accessible name (WCAG 2.5.3), so no aria-label here. */}
          <Avatar name={name || '?'} src={profile?.pictureUrl} className="size-8" />
          <span className="hidden max-w-40 truncate font-medium sm:inline">{profile?.firstName}</span>
          <span className="sr-only">Menú de usuario</span>
          <ChevronDown className="hidden size-4 text-muted-foreground sm:block" aria-hidden />
        </button>
      }
    />
  );
}

import { useNavigate } from 'react-router';
import { ChevronDown, LogOut, Palette, ShieldCheck, UserRound } from 'lucide-react';
import type { Profile } from '@divan/core';
import { Avatar } from '@/components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useSignOut } from '@/features/auth/api/account-api';

export function UserMenu({ profile }: { profile: Profile | null }) {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const name = profile ? [profile.firstName, profile.lastName].filter(Boolean).join(' ') : '';

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex items-center gap-2 rounded-full py-1 pl-1 pr-1 text-sm hover:bg-muted sm:pr-2.5"
      >
        {/* The visible name stays part of the accessible name (WCAG 2.5.3), so no aria-label here. */}
        <Avatar name={name || '?'} src={profile?.pictureUrl} className="size-8" />
        <span className="hidden max-w-40 truncate font-medium sm:inline">{profile?.firstName}</span>
        <span className="sr-only">Menú de usuario</span>
        <ChevronDown className="hidden size-4 text-muted-foreground sm:block" aria-hidden />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="grid gap-0.5 text-sm">
          <span className="truncate font-medium">{name}</span>
          <span className="truncate text-[0.8125rem] font-normal text-muted-foreground">{profile?.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void navigate('/settings/profile')}>
          <UserRound aria-hidden /> Perfil
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void navigate('/settings/security')}>
          <ShieldCheck aria-hidden /> Seguridad
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void navigate('/settings/appearance')}>
          <Palette aria-hidden /> Apariencia
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => signOut.mutate(undefined)} disabled={signOut.isPending}>
          <LogOut aria-hidden /> Cerrar sesión
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

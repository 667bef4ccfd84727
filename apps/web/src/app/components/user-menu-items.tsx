import { useNavigate } from 'react-router';
import { LogOut, Palette, ShieldCheck, UserRound } from 'lucide-react';
import type { Profile } from '@divan/core';
import { DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';

type Props = { profile: Profile | null; name: string; onSignOut: () => void; signingOut: boolean };

/** The user menu's items, loaded with the menu (see UserMenu). */
export default function UserMenuItems({ profile, name, onSignOut, signingOut }: Props) {
  const navigate = useNavigate();
  return (
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
      <DropdownMenuItem onSelect={onSignOut} disabled={signingOut}>
        <LogOut aria-hidden /> Cerrar sesión
      </DropdownMenuItem>
    </DropdownMenuContent>
  );
}

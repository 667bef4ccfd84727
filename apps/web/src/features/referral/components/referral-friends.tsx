import { UsersRound } from 'lucide-react';
import type { ReferralFriend, ReferralRefusedReason } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/states';
import { formatCurrency, formatDate } from '@/lib/format';

// A refused colleague did subscribe: what she earned the referrer is said beside it.
const STATUS: Record<ReferralFriend['status'], string> = { joined: 'En prueba', rewarded: 'Ha contratado', refused: 'Ha contratado' };

/** Why a colleague's first invoice earned no month off. */
const REFUSED: Record<ReferralRefusedReason, string> = { same_card: 'Sin recompensa: pagó con la misma tarjeta que tú' };

/** What the month off of one colleague is, or will be — or why there is none. */
function rewardText(friend: ReferralFriend): { amount: string | null; when: string } {
  if (friend.status === 'refused') return { amount: null, when: REFUSED[friend.refusedReason ?? 'same_card'] };
  if (!friend.reward) return { amount: null, when: 'Cuando pague su primera factura' };
  return {
    amount: formatCurrency(friend.reward.amount),
    when: friend.reward.state === 'applied' ? 'En tu próxima factura' : 'Cuando contrates un plan',
  };
}

/** «Colegas que se han unido»: each one's name, masked email, day joined, status and the month off earned. */
export function ReferralFriends({ friends }: { friends: ReferralFriend[] }) {
  if (friends.length === 0)
    return (
      <EmptyState
        icon={<UsersRound aria-hidden />}
        title="Aún no se ha unido nadie con tu código"
        text="Cuando un colega se registre con tu enlace o tu código, aparecerá aquí."
      />
    );
  return (
    <ul className="grid divide-y rounded-lg border" aria-label="Colegas que se han unido">
      {friends.map((f) => {
        const reward = rewardText(f);
        return (
          <li key={f.id} className="grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-6">
            <div className="grid min-w-0 gap-0.5">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-medium">{f.firstName}</span>
                <Badge variant={f.status === 'rewarded' ? 'accent' : 'neutral'}>{STATUS[f.status]}</Badge>
              </p>
              <p className="flex flex-wrap gap-x-1.5 text-[0.8125rem] text-muted-foreground">
                <span className="break-all">{f.email}</span>
                <span aria-hidden>·</span>
                <span className="whitespace-nowrap">se unió el {formatDate(f.joinedAt)}</span>
              </p>
            </div>
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 sm:grid sm:justify-items-end sm:text-right">
              {reward.amount ? <p className="font-medium tabular-nums">{reward.amount}</p> : null}
              <p className="text-[0.8125rem] text-muted-foreground">{reward.when}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

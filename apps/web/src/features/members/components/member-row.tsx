import { Mail, MoreHorizontal, Pencil, UserMinus, X } from 'lucide-react';
import type { Member } from '@divan/core';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { formatDate } from '@/lib/format';
import { describeCommission, RECEIVER_LABELS } from '../utils/commission';

type Props = {
  member: Member;
  isMe: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onRemove: () => void;
};

/** How the invitation's mail went, when the inviter should know: refused, given up, or still being retried. */
function invitationMailNote(m: Member): string | null {
  const mail = m.mail;
  if (!mail) return null;
  const answer = mail.error ? ` (${mail.error.slice(0, 120)})` : '';
  if (mail.status === 'bounced')
    return `El servidor de correo rechazó la dirección${answer}. Revisa el email, cancela la invitación y vuelve a invitar.`;
  if (mail.status === 'failed')
    return `No se pudo enviar el correo tras varios intentos${answer}. Cancela la invitación y vuelve a invitar.`;
  if (mail.status === 'queued' && mail.error) return 'El correo aún no ha salido: lo seguimos intentando.';
  return null;
}

export const memberName = (m: Member) => [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email;

export function MemberRow({ member: m, isMe, canUpdate, canDelete, onEdit, onRemove }: Props) {
  const pending = m.status === 'pending';
  const name = memberName(m);
  const canEdit = !pending && canUpdate;
  const canRemove = canDelete && !m.isOwner;
  const undelivered = m.mail?.status === 'bounced' || m.mail?.status === 'failed';
  const mailNote = invitationMailNote(m);

  return (
    <li className="flex flex-wrap items-start gap-3 px-4 py-4 sm:flex-nowrap sm:items-center sm:px-5" data-testid="member-row">
      {pending ? (
        <span className="grid size-10 shrink-0 place-items-center rounded-full border border-dashed bg-muted text-muted-foreground">
          <Mail className="size-4" aria-hidden />
        </span>
      ) : (
        <Avatar name={name} src={m.pictureUrl} className="size-10" />
      )}
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="truncate font-medium">{name}</span>
          {isMe ? <Badge variant="outline">Tú</Badge> : null}
          {m.isOwner ? <Badge variant="accent">Propietario</Badge> : null}
          {pending ? <Badge variant="warning">Pendiente</Badge> : null}
          {undelivered ? <Badge variant="destructive">Correo no entregado</Badge> : null}
        </div>
        <p className="truncate text-[0.8125rem] text-muted-foreground">
          {pending ? `Invitación enviada el ${formatDate(m.createdAt)}` : m.email}
        </p>
        {mailNote ? (
          <p
            className={undelivered ? 'text-[0.8125rem] text-destructive' : 'text-[0.8125rem] text-muted-foreground'}
            role={undelivered ? 'status' : undefined}
          >
            {mailNote}
          </p>
        ) : null}
        <p className="text-[0.8125rem] text-muted-foreground md:hidden">
          {describeCommission(m.commission)} · {RECEIVER_LABELS[m.paymentsReceiver]}
        </p>
        <div className="flex flex-wrap gap-1.5 pt-0.5">
          {m.roles.map((r) => (
            <Badge key={r.id}>{r.name}</Badge>
          ))}
        </div>
      </div>
      <div className="hidden shrink-0 text-right text-[0.8125rem] text-muted-foreground md:grid">
        <span>{describeCommission(m.commission)}</span>
        <span>{RECEIVER_LABELS[m.paymentsReceiver]}</span>
      </div>
      {canEdit || canRemove ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label={`Acciones para ${name}`} className="ml-auto">
              <MoreHorizontal aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {canEdit ? (
              <DropdownMenuItem onSelect={onEdit}>
                <Pencil aria-hidden /> Editar roles y comisión
              </DropdownMenuItem>
            ) : null}
            {canRemove ? (
              <DropdownMenuItem onSelect={onRemove} className="text-destructive [&_svg]:!text-destructive">
                {pending ? <X aria-hidden /> : <UserMinus aria-hidden />}
                {pending ? 'Cancelar invitación' : isMe ? 'Salir del espacio' : 'Quitar del espacio'}
              </DropdownMenuItem>
            ) : null}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
    </li>
  );
}

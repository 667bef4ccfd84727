import { useState, type FormEvent } from 'react';
import { ADMIN_ROLE_NAME, errorMessage, grantRefusal, inviteMemberBody, type Member, type Workspace } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useInviteMember, useUpdateMember, type PaymentsReceiver } from '../api/members-api';
import { commissionExample, commissionText, RECEIVER_HINTS, toCommission, type CommissionKind } from '../utils/commission';
import { ChoiceGroup } from './choice';

type Props = {
  workspace: Workspace;
  /** Absent: invite someone new. */
  member?: Member;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

type Errors = { email?: string; roles?: string; commission?: string; form?: string };

/** Where each server refusal is shown: next to the field it concerns, or above the buttons. */
const fieldOf: Record<string, keyof Errors> = {
  invitation_already_sent: 'email',
  member_already_exists: 'email',
  seat_needs_role: 'roles',
  owner_must_be_admin: 'roles',
  duplicated_roles: 'roles',
  role_not_found: 'roles',
  // Refused grants (a role with permissions the editor lacks, the administrator role…): said under the roles.
  access_denied: 'roles',
};

const kindOptions: { value: CommissionKind; label: string }[] = [
  { value: 'none', label: 'Sin comisión' },
  { value: 'fixed', label: 'Importe fijo (€)' },
  { value: 'percentage', label: 'Porcentaje (%)' },
];
const amountLabel = { fixed: 'Euros que se queda el espacio por sesión', percentage: 'Porcentaje que se queda el espacio (%)' } as const;
const receiverOptions: { value: PaymentsReceiver; label: string }[] = [
  { value: 'therapist', label: 'El terapeuta' },
  { value: 'workspace', label: 'El espacio' },
];

/** Invite a member, or edit one: roles (at least one), commission and who receives the payments. */
export function MemberDialog({ workspace, member, open, onOpenChange }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <MemberForm workspace={workspace} member={member} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function MemberForm({ workspace, member, onDone }: { workspace: Workspace; member?: Member; onDone: () => void }) {
  const editing = !!member;
  const invite = useInviteMember(workspace.id);
  const update = useUpdateMember(workspace.id);
  const [email, setEmail] = useState('');
  const [roleIds, setRoleIds] = useState<string[]>(() => member?.roles.map((r) => r.id) ?? []);
  const [kind, setKind] = useState<CommissionKind>(member?.commission?.type ?? 'none');
  const [amount, setAmount] = useState(() => commissionText(member?.commission ?? null));
  const [receiver, setReceiver] = useState<PaymentsReceiver>(member?.paymentsReceiver ?? 'therapist');
  const [errors, setErrors] = useState<Errors>({});
  const pending = invite.isPending || update.isPending;
  // Worked out live from what is typed, with the rule every session's fee is computed with.
  const example = commissionExample(kind, amount);
  const name = member ? [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email : '';
  const adminRole = workspace.roles.find((r) => r.name === ADMIN_ROLE_NAME);
  // The server's grant rules, said before sending: nobody changes their own roles; only an
  // administrator grants the administrator role or changes an administrator's roles.
  const self = !!member && member.id === workspace.me.memberId;
  const ofAdmin = !!member && member.roles.some((r) => r.id === adminRole?.id);
  // One's own roles stay editable here so the owner hears why first (owner_must_be_admin); sending a change is refused below.
  const lockedAll = ofAdmin && !workspace.me.isAdmin && !self;
  const locked = (role: { isAdmin: boolean }) => lockedAll || (role.isAdmin && !workspace.me.isAdmin);
  const lockReason = self
    ? grantRefusal.ownRoles
    : ofAdmin && !workspace.me.isAdmin
      ? grantRefusal.adminMember
      : !workspace.me.isAdmin
        ? grantRefusal.adminRole
        : null;

  // A message goes away as soon as the user acts on it.
  const clear = (key: keyof Errors) => setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  const toggleRole = (id: string) => {
    if (lockedAll) return;
    clear('roles');
    setRoleIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Errors = {};
    const commission = toCommission(kind, amount);
    if ('error' in commission) next.commission = commission.error;
    const parsed = inviteMemberBody.safeParse({ email: editing ? 'x@example.com' : email, roleIds });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] === 'email' ? 'email' : 'roles';
        next[key] ??= issue.message;
      }
    }
    // The same rule the server applies (owner_must_be_admin), said before sending.
    if (member?.isOwner && adminRole && !roleIds.includes(adminRole.id)) next.roles = errorMessage('owner_must_be_admin');
    const sameRoles = !!member && roleIds.length === member.roles.length && member.roles.every((r) => roleIds.includes(r.id));
    if (self && !sameRoles) next.roles ??= grantRefusal.ownRoles;
    setErrors(next);
    if (Object.keys(next).length > 0 || 'error' in commission || !parsed.success) return;

    try {
      if (member) {
        await update.mutateAsync({ memberId: member.id, body: { roleIds, commission: commission.commission, paymentsReceiver: receiver } });
        toast.success(`Cambios guardados para ${name}`);
      } else {
        await invite.mutateAsync({
          email: parsed.data.email,
          roleIds,
          ...(commission.commission ? { commission: commission.commission } : {}),
          paymentsReceiver: receiver,
        });
        toast.success(`Invitación enviada a ${parsed.data.email}`);
      }
      onDone();
    } catch (error) {
      const message = isApiError(error) ? error.message : 'Error inesperado.';
      const field = isApiError(error) ? fieldOf[error.code] : undefined;
      setErrors({ [field ?? 'form']: message });
    }
  };

  return (
    <DialogContent className="max-w-xl">
      <DialogHeader
        title={editing ? `Editar a ${name}` : 'Invitar a un miembro'}
        description={
          editing
            ? 'Sus roles deciden qué puede ver y hacer en este espacio.'
            : `Le enviaremos un email para unirse a ${workspace.name}. Si aún no tiene cuenta, podrá crearla desde el enlace.`
        }
      />
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-6">
        {errors.form ? <Alert variant="error">{errors.form}</Alert> : null}
        {editing ? null : (
          <Field label="Email" error={errors.email}>
            <Input
              type="email"
              inputMode="email"
              autoComplete="off"
              autoFocus
              value={email}
              onChange={(e) => {
                clear('email');
                setEmail(e.target.value);
              }}
            />
          </Field>
        )}
        {editing && errors.email ? <Alert variant="error">{errors.email}</Alert> : null}
        <fieldset className="grid gap-2" aria-describedby={errors.roles ? 'member-roles-error' : undefined}>
          <legend className="mb-1.5 text-sm font-medium">Roles</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {workspace.roles.map((r) => {
              const checked = roleIds.includes(r.id);
              const disabled = locked(r);
              return (
                <label
                  key={r.id}
                  className={cn(
                    'flex cursor-pointer items-center gap-2.5 rounded-lg border bg-card px-3 py-2.5 text-sm shadow-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                    checked ? 'border-primary bg-accent text-accent-foreground' : 'hover:bg-muted',
                    disabled && 'cursor-not-allowed opacity-60 hover:bg-card',
                  )}
                >
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={disabled}
                    onChange={() => toggleRole(r.id)}
                    className="size-4 accent-[var(--color-primary)]"
                    aria-invalid={errors.roles ? true : undefined}
                  />
                  <span className="grid leading-tight">
                    <span className="font-medium">{r.name}</span>
                    {r.name === ADMIN_ROLE_NAME ? <span className="text-xs text-muted-foreground">Acceso total al espacio</span> : null}
                  </span>
                </label>
              );
            })}
          </div>
          {errors.roles ? (
            <p id="member-roles-error" role="alert" className="text-[0.8125rem] font-medium text-destructive">
              {errors.roles}
            </p>
          ) : lockReason ? (
            <p className="text-[0.8125rem] text-muted-foreground">{lockReason}</p>
          ) : (
            <p className="text-[0.8125rem] text-muted-foreground">Elige al menos uno. Puedes crear roles a medida en Roles y permisos.</p>
          )}
        </fieldset>
        <ChoiceGroup
          legend="Comisión del espacio por sesión"
          name="commission"
          value={kind}
          options={kindOptions}
          onChange={(k) => {
            clear('commission');
            setKind(k);
          }}
        >
          <p className="text-[0.8125rem] text-muted-foreground">
            Lo que se queda el espacio de cada sesión; el resto es para el terapeuta.
          </p>
          {kind === 'none' ? null : (
            <Field label={amountLabel[kind]} error={errors.commission} className="max-w-72">
              <Input
                inputMode="decimal"
                value={amount}
                onChange={(e) => {
                  clear('commission');
                  setAmount(e.target.value);
                }}
                placeholder={kind === 'fixed' ? '15,00' : '30'}
              />
            </Field>
          )}
          {example ? (
            <p className="rounded-lg bg-muted px-3 py-2 text-sm" data-testid="commission-example" aria-live="polite">
              {example}
            </p>
          ) : null}
        </ChoiceGroup>
        <ChoiceGroup legend="¿Quién cobra las sesiones?" name="receiver" value={receiver} options={receiverOptions} onChange={setReceiver}>
          <p className="text-[0.8125rem] text-muted-foreground">{RECEIVER_HINTS[receiver]}</p>
        </ChoiceGroup>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
            Cancelar
          </Button>
          <Button type="submit" loading={pending}>
            {editing ? 'Guardar cambios' : 'Enviar invitación'}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}

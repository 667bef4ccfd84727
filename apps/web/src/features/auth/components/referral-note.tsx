import { useCallback, useEffect, useRef, useState } from 'react';
import { Gift } from 'lucide-react';
import { isApiError } from '@/lib/http';
import { authApi } from '../api/auth-api';
import { FRIEND_DAYS, isCode, normalizeCode } from '../utils/referral-code';

type Inviter = { state: 'idle' } | { state: 'found'; code: string; firstName: string } | { state: 'missing'; code: string };

/**
 * Who an invitation code belongs to (GET /referrals/:code), for the sign-up page: looked up for the
 * code of `?ref=` on arrival and again for each new code typed (`check`, on leaving the field); a code
 * not yet checked says nothing. Any failure but «no existe» says nothing either: the sign-up answers for
 * the code in the end.
 */
export function useReferralInviter(initial: string) {
  const [inviter, setInviter] = useState<Inviter>({ state: 'idle' });
  const asked = useRef<{ code: string; abort: AbortController } | null>(null);

  const check = useCallback((raw: string, arrival = false) => {
    const code = normalizeCode(raw);
    if (asked.current?.code === code) return;
    asked.current?.abort.abort();
    asked.current = null;
    setInviter({ state: 'idle' });
    // A half-typed code is not asked about (the form says what a code looks like when it is sent); a
    // link's code that cannot be one does not exist.
    if (!isCode(code)) {
      if (arrival && code) setInviter({ state: 'missing', code });
      return;
    }
    const abort = new AbortController();
    asked.current = { code, abort };
    authApi.referralInviter(code, abort.signal).then(
      ({ firstName }) => {
        if (!abort.signal.aborted) setInviter({ state: 'found', code, firstName });
      },
      (error: unknown) => {
        if (!abort.signal.aborted && isApiError(error) && error.code === 'referral_code_not_found') setInviter({ state: 'missing', code });
      },
    );
  }, []);

  /** The code is being edited: what was said about the previous one no longer holds. */
  const edited = useCallback((raw: string) => {
    setInviter((i) => (i.state !== 'idle' && normalizeCode(raw) !== i.code ? { state: 'idle' } : i));
  }, []);

  useEffect(() => {
    if (initial) check(initial, true);
    return () => {
      asked.current?.abort.abort();
      asked.current = null;
    };
  }, [initial, check]);

  return { inviter, check: (raw: string) => check(raw), edited };
}

/** Above the form: the welcome of who invites, or a gentle word when the code does not exist. Read aloud when it changes. */
export function ReferralNote({ inviter }: { inviter: Inviter }) {
  return (
    <div role="status" className="not-empty:mb-5">
      {inviter.state === 'found' ? (
        <p className="flex items-start gap-3 rounded-lg border border-primary/25 bg-accent px-4 py-3 text-sm leading-relaxed text-accent-foreground">
          <Gift className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            <strong className="font-semibold">{inviter.firstName}</strong> te ha invitado a Diván: tendrás {FRIEND_DAYS} días más de prueba
            gratis.
          </span>
        </p>
      ) : inviter.state === 'missing' ? (
        <p className="rounded-lg border bg-muted/60 px-4 py-3 text-sm leading-relaxed text-muted-foreground">
          Ese código de invitación no existe. Puedes corregirlo más abajo o dejarlo vacío: tu cuenta se crea igualmente.
        </p>
      ) : null}
    </div>
  );
}

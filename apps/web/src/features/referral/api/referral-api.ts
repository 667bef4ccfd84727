import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RedeemReferral, RedeemReferralBody, Referral } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspacesQueryKey } from '@/lib/workspace-keys';

/** The signed-in person's own referral: theirs whichever workspace is open (GET /me/referral). */
export const referralQueryKey = ['me', 'referral'] as const;

/** GET /me/referral: the code and link to share, who invited them, the colleagues who joined and what they earned. */
export const useReferral = () =>
  useQuery({
    queryKey: referralQueryKey,
    queryFn: ({ signal }) => api<Referral>('/me/referral', { signal }),
  });

/**
 * POST /workspaces/:wid/referral: a colleague's code, entered by the workspace's owner after signing up.
 * The trial grows by 30 days, so the workspaces are read again (the shell's sync puts them in the store and
 * the trial notice follows), and so is the referral (now `invitedBy`).
 */
export const useRedeemReferral = (wid: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RedeemReferralBody) => api<RedeemReferral>(`/workspaces/${wid}/referral`, { method: 'POST', body }),
    // Not awaited: the code is redeemed whether or not these reads succeed, and the success is said at once.
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: workspacesQueryKey });
      void qc.invalidateQueries({ queryKey: referralQueryKey });
    },
  });
};

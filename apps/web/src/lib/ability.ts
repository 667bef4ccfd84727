import { useMemo } from 'react';
import { defineAbility, type AppAbility } from '@divan/core';
import { useAbilityInput } from './permits';

/**
 * What the member may do in the current workspace, from the permissions the server sent with it, as a
 * CASL ability (scopes, field maps). For «may they» alone, `usePermits` (lib/permits.ts) needs no CASL.
 * The server is the guard; the web only avoids offering what would be refused.
 */
export function useAbility(): AppAbility {
  const input = useAbilityInput();
  return useMemo(() => defineAbility(input), [input]);
}

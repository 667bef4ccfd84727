import { useEffect, useState } from 'react';
import type { SocialForm, SocialProvider } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/http';
import { socialApi } from '../api/social-api';
import { rememberSocialIntent } from '../utils/social-intent';
import { PROVIDER_LABEL, ProviderLogo } from './provider-logo';

// The last list this browser saw, drawn at once on the next visit: the form below does not jump when it arrives.
const CACHE = 'divan:social-providers';
function cachedProviders(): SocialProvider[] {
  try {
    const list = JSON.parse(localStorage.getItem(CACHE) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((p): p is SocialProvider => p === 'google' || p === 'apple') : [];
  } catch {
    return [];
  }
}
function cacheProviders(list: SocialProvider[]) {
  try {
    localStorage.setItem(CACHE, JSON.stringify(list));
  } catch {
    // storage unavailable: drawn after the answer, as on a first visit
  }
}

type Props = {
  form: SocialForm;
  /** Where to go once signed in (an invitation), kept for the way back. */
  redirect?: string | null;
  /** A colleague's invitation code, for a new account (sign-up only). */
  referralCode?: string;
};

/**
 * «Continuar con Google» and «Continuar con Apple», above the email form: only the providers this server is
 * configured for, and nothing at all (not even the «o» divider) when there are none or the list cannot be read.
 */
export function SocialButtons({ form, redirect, referralCode }: Props) {
  const [providers, setProviders] = useState<SocialProvider[]>(cachedProviders);
  const [pending, setPending] = useState<SocialProvider | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    socialApi.providers(abort.signal).then(
      ({ providers: list }) => {
        setProviders(list);
        cacheProviders(list);
      },
      () => {
        if (!abort.signal.aborted) setProviders([]);
      },
    );
    return () => abort.abort();
  }, []);

  if (providers.length === 0) return null;

  const start = async (provider: SocialProvider) => {
    setPending(provider);
    setError(null);
    try {
      const { url } = await socialApi.authorize(provider, referralCode ? { form, referralCode } : { form });
      rememberSocialIntent({ kind: form, provider, redirect });
      window.location.assign(url);
      // The page is leaving: the button stays busy until it does.
    } catch (e) {
      setPending(null);
      setError(isApiError(e) ? e.message : `No hemos podido conectar con ${PROVIDER_LABEL[provider]}. Inténtalo de nuevo.`);
    }
  };

  return (
    <div className="mb-6 grid gap-3">
      {error ? <Alert variant="error">{error}</Alert> : null}
      {providers.map((provider) => (
        <Button
          key={provider}
          type="button"
          variant="outline"
          size="lg"
          className="w-full [&_svg]:size-5"
          loading={pending === provider}
          disabled={pending !== null && pending !== provider}
          onClick={() => void start(provider)}
        >
          {pending === provider ? null : <ProviderLogo provider={provider} />}
          Continuar con {PROVIDER_LABEL[provider]}
        </Button>
      ))}
      <div className="mt-3 flex items-center gap-3 text-[0.8125rem] text-muted-foreground" aria-hidden>
        <span className="h-px flex-1 bg-border" />o con tu email
        <span className="h-px flex-1 bg-border" />
      </div>
    </div>
  );
}

import { create } from 'zustand';
import type * as Sonner from 'sonner';
import { onFirstInput } from './first-input';

/**
 * Toasts without paying for sonner up front: the library (and its <Toaster>) load on the first toast.
 * Sonner replays toasts created before its Toaster subscribes, so nothing shown early is lost.
 */
export const useToasterStore = create<{ wanted: boolean }>(() => ({ wanted: false }));

let sonner: Promise<typeof Sonner> | null = null;
const load = () => {
  useToasterStore.setState({ wanted: true });
  sonner ??= import('sonner');
  return sonner;
};

type Kind = 'success' | 'error' | 'info' | 'message';
const show = (kind: Kind) => (message: string, options?: Sonner.ExternalToast) =>
  void load().then(({ toast: t }) => (kind === 'message' ? t(message, options) : t[kind](message, options)));

export const toast = { success: show('success'), error: show('error'), info: show('info'), message: show('message') };

/** Loads the toaster ahead of need (e.g. once signed in, where toasts are frequent). */
export const preloadToaster = () => void load();

/**
 * Loads the toaster on the first press or key: most toasts answer something the user did, and that
 * action (a save, a switch) takes longer than this ~10 KB. A page nobody touches does not download it;
 * a toast that comes first (a realtime event) loads it itself. Returns the clean-up, for an effect.
 */
export const preloadToasterOnFirstInput = (): (() => void) => onFirstInput(preloadToaster);

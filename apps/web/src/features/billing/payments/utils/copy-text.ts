import { toast } from '@/lib/toast';

/** Copies a link and says so; when the browser refuses, says how to do it by hand. */
export async function copyLink(url: string, done = 'Enlace copiado'): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url);
    toast.success(done);
    return true;
  } catch {
    toast.error('No se ha podido copiar: selecciona el enlace y cópialo a mano');
    return false;
  }
}

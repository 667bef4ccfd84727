/**
 * Where «Volver a tus documentos en Diván» leads after signing, when the patient came from their
 * companion (`?volver=/p/<file>/consentimientos`, set by the companion's sign link). Only that exact
 * shape is accepted: the parameter can never send the signer to another site or page.
 */
export function companionReturn(search: string): string | null {
  const back = new URLSearchParams(search).get('volver');
  return back && /^\/p\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/consentimientos$/.test(back) ? back : null;
}

/** The fake providers' one page (fake-oidc.ts): a form a browser test fills in, or fake-oidc-driver.ts posts. */
export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function interactionPage(p: { uid: string; kind: 'google' | 'apple'; clientId: string; error?: string }): string {
  const title = p.kind === 'google' ? 'Google (de prueba)' : 'Apple (de prueba)';
  const relay =
    p.kind === 'apple'
      ? '<p><label><input type="checkbox" name="relay" value="1" checked> Ocultar mi email (relay de Apple)</label></p>'
      : '';
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><title>${title}</title></head>
<body>
  <h1>${title}</h1>
  <p>Iniciar sesión en ${escapeHtml(p.clientId)}</p>
  ${p.error ? `<p role="alert">${escapeHtml(p.error)}</p>` : ''}
  <form method="post" action="/interaction/${escapeHtml(p.uid)}" data-fake-oidc="interaction">
    <p><label>Email <input type="email" name="email" required autofocus></label></p>
    <p><label>Nombre <input type="text" name="name"></label></p>
    <p><label><input type="checkbox" name="verified" value="1" checked> Email verificado</label></p>
    ${relay}
    <p><button type="submit" name="submit" value="1">Continuar</button>
    <button type="submit" name="cancel" value="1" formnovalidate>Cancelar</button></p>
  </form>
</body>
</html>`;
}

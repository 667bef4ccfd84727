import path from 'node:path';

/**
 * The boundaries of ARCHITECTURE.md, as an ESLint rule:
 * - web: a feature (`apps/web/src/features/<x>/`) imports no other feature; shared code lives in
 *   `components/`, `lib/`, `stores/` or `packages/core`, and only `app/` wires features together;
 * - server: a module (`apps/server/src/modules/<x>/`) reaches another only through its service or a
 *   domain event, never through its repository or tables. Only `*.tables.ts` files may name another
 *   module's tables (foreign keys);
 * - the public bundles: the companion (`src/companion/`) and the booking pages (`src/public-booking/`)
 *   never import each other; what they share lives in `src/public-kit/`, which imports neither.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const WEB_SRC = path.join(ROOT, 'apps/web/src');
const FEATURES = path.join(WEB_SRC, 'features');
const MODULES = path.join(ROOT, 'apps/server/src/modules');
const PUBLIC_BUNDLES = ['companion', 'public-booking'];

/** The first folder of `file` under `base`, or null when `file` is not inside `base`. */
export function areaOf(base, file) {
  const rel = path.relative(base, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [first, ...rest] = rel.split(path.sep);
  return rest.length ? first : null;
}

/** Where an import points on disk, for relative paths and the web's `@/` alias; null for packages. */
export function resolveImport(file, source) {
  if (source.startsWith('.')) return path.resolve(path.dirname(file), source);
  if (source.startsWith('@/') && file.startsWith(WEB_SRC + path.sep)) return path.join(WEB_SRC, source.slice(2));
  return null;
}

/** The message when importing `source` from `file` crosses a boundary, or null. */
export function boundaryProblem(file, source) {
  const target = resolveImport(file, source);
  if (!target) return null;
  const fromFeature = areaOf(FEATURES, file);
  const toFeature = areaOf(FEATURES, target);
  if (fromFeature && toFeature && fromFeature !== toFeature)
    return `La feature "${fromFeature}" no importa la feature "${toFeature}": mueve lo compartido a components/, lib/ o packages/core, o conéctalas desde app/.`;
  const fromArea = areaOf(WEB_SRC, file);
  const toArea = areaOf(WEB_SRC, target);
  if (PUBLIC_BUNDLES.includes(toArea) && fromArea !== toArea && (PUBLIC_BUNDLES.includes(fromArea) || fromArea === 'public-kit'))
    return `"${fromArea}" no importa "${toArea}": lo que comparten el acompañante y las páginas de reserva vive en public-kit/.`;
  const fromModule = areaOf(MODULES, file);
  const toModule = areaOf(MODULES, target);
  if (fromModule && toModule && fromModule !== toModule && /\.(repository|tables)(\.ts)?$/.test(target) && !file.endsWith('.tables.ts'))
    return `El módulo "${fromModule}" no usa el repositorio ni las tablas de "${toModule}": pasa por su servicio o por un evento.`;
  return null;
}

const rule = {
  meta: { type: 'problem', schema: [], docs: { description: 'Feature and module boundaries of ARCHITECTURE.md' } },
  create(context) {
    const file = context.filename;
    const check = (node) => {
      const source = node.source && node.source.value;
      if (typeof source !== 'string') return;
      const message = boundaryProblem(file, source);
      if (message) context.report({ node: node.source, message });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { boundaries: rule } };

import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** The specifiers a file loads at run time: `import type` and all-type specifier lists are erased, so they are left out. */
function runtimeImports(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const allTypes = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
    elements.length > 0 && elements.every((e) => e.isTypeOnly);
  for (const st of file.statements) {
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      if (clause?.isTypeOnly) continue;
      if (
        clause &&
        !clause.name &&
        clause.namedBindings &&
        ts.isNamedImports(clause.namedBindings) &&
        allTypes(clause.namedBindings.elements)
      )
        continue;
      out.push((st.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      if (st.isTypeOnly || (st.exportClause && ts.isNamedExports(st.exportClause) && allTypes(st.exportClause.elements))) continue;
      out.push((st.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  // import('…') anywhere in the file loads it too.
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteral(arg)) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function resolveFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // the next candidate
    }
  }
  throw new Error(`${relative(SRC, from)}: cannot resolve ${specifier}`);
}

/** Every file `entry` loads at run time, and the packages each of them imports. */
function runtimeGraph(entry: string): { files: string[]; packages: { file: string; specifier: string }[] } {
  const seen = new Set<string>();
  const packages: { file: string; specifier: string }[] = [];
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(readFileSync(file, 'utf8'), file)) {
      if (specifier.startsWith('.')) walk(resolveFile(file, specifier));
      else packages.push({ file: relative(SRC, file), specifier });
    }
  };
  walk(entry);
  return { files: [...seen].map((f) => relative(SRC, f)).sort(), packages };
}

describe('@divan/core/rules', () => {
  it('loads no Zod and no date library, nor any other package: plain code on Intl', () => {
    const { files, packages } = runtimeGraph(resolve(SRC, 'rules.ts'));
    expect(files.length).toBeGreaterThan(40);
    expect(packages).toEqual([]);
  });

  it('the walk sees what a file loads, and only that', () => {
    const source = [
      "import { z } from 'zod';",
      "import type { Schema } from './contracts';",
      "import { type A, type B } from './types';",
      "import { tzOffset, type Offset } from '@date-fns/tz';",
      "export * from './money/format';",
      "export type { C } from './c';",
      "import './side-effect';",
      "const later = () => import('./lazy');",
    ].join('\n');
    expect(runtimeImports(source)).toEqual(['zod', '@date-fns/tz', './money/format', './side-effect', './lazy']);
  });

  it('finds a package a rule reaches through another file', () => {
    // The main index reaches Zod through the contracts: the same walk over it must say so.
    const { packages } = runtimeGraph(resolve(SRC, 'index.ts'));
    expect(packages.map((p) => p.specifier)).toContain('zod');
  });
});

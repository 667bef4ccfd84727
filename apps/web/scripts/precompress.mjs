// Writes .br and .gz beside each built asset, so the server sends compressed files without
// compressing on every request (@fastify/static `preCompressed`).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
let count = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(js|css|html|svg|json|txt|map)$/.test(name) && statSync(path).size > 1024) {
      const data = readFileSync(path);
      writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      count++;
    }
  }
};
walk(dist);
console.log(`precompressed ${count} files`);

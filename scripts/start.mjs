// `npm start`: build what is stale, then run the server in this process (migrations apply at start).
import { ensureBuilt, root } from './build-if-stale.mjs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

ensureBuilt();
await import(pathToFileURL(join(root, 'apps/server/dist/main.js')).href);

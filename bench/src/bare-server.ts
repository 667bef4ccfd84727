// The baseline of the throughput scenario: the fastify the server uses, one JSON route, no plugins, no logger.
import type { FastifyInstance } from 'fastify';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './util';

type Factory = (opts: { logger: boolean }) => FastifyInstance;

const fromServer = createRequire(resolve(root, 'apps/server/package.json'));
const mod = (await import(pathToFileURL(fromServer.resolve('fastify')).href)) as { default: Factory };
const app = mod.default({ logger: false });
app.get('/', async () => ({ status: 'ok', version: '1.0.0' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(`bare fastify ${app.version} listening`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));

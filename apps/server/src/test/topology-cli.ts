import { startTopology } from './topology';

/**
 * `scripts/topology/topology.sh`: starts issue 31's topology (test/topology.ts), prints where each piece
 * listens, and tears it all down on Ctrl-C (or at once with --check, after starting it).
 */
const check = process.argv.includes('--check');
const started = performance.now();
const t = await startTopology({ build: true, log: (line) => console.log(`· ${line}`) });
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  console.log('Stopping the topology…');
  await t.stop();
  process.exit(code);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
console.log(`Topology up in ${Math.round((performance.now() - started) / 1000)} s:
  haproxy        ${t.proxyUrl}   (checks ${t.readyPath})
  web a, web b   ${t.webs.map((w) => w.url).join(', ')}
  worker         ${t.worker.url}
  primary        ${t.primaryUrl}
  replica        ${t.replicaUrl}
  redis          ${t.redisUrl}
  s3             ${t.env.S3_ENDPOINT} (bucket ${t.env.S3_BUCKET})
  files under    ${t.dir}`);
if (check) {
  const res = await fetch(`${t.proxyUrl}/api/v1/health`);
  console.log(`GET /api/v1/health through haproxy: ${res.status}`);
  await stop(res.status === 200 ? 0 : 1);
} else console.log('Ctrl-C stops it and removes everything.');

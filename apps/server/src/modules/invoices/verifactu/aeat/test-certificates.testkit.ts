// Test helper: a throw-away certificate authority, made with the openssl CLI when the tests start.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TestCertificates = {
  ca: Buffer;
  server: { key: Buffer; cert: Buffer };
  /** The sender's certificate (CN: a NIF, as the FNMT's), as PEM and as a PKCS#12 file with its passphrase. */
  client: { key: Buffer; cert: Buffer; pfx: Buffer; passphrase: string; pfxPath: string; caPath: string };
  /** A client certificate the endpoint's CA did not sign. */
  stranger: { key: Buffer; cert: Buffer };
};

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
/** Skipped only outside CI: under CI=true a missing openssl fails the test. */
export const skipTls = !hasOpenssl && process.env.CI !== 'true';
if (skipTls) console.warn('VERI*FACTU sending tests skipped: openssl is missing (under CI=true this fails).');

function openssl(dir: string, args: string[]) {
  const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${run.stderr}${run.error ?? ''}`);
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A CA, a server certificate for 127.0.0.1 and localhost, a client certificate signed by the CA, and a stranger. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'verifactu-tls-'));
  const passphrase = 'contraseña de prueba';
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=Diván test AEAT CA', '-days', '2']);
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, subject] of [
    ['server', '/CN=localhost'],
    ['client', '/CN=12345678Z PRUEBA/serialNumber=IDCES-12345678Z'],
  ] as const) {
    openssl(dir, ['req', '-new', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    ]);
  }
  openssl(dir, [
    'pkcs12',
    '-export',
    '-inkey',
    'client.key',
    '-in',
    'client.crt',
    '-certfile',
    'ca.crt',
    '-out',
    'client.p12',
    '-passout',
    `pass:${passphrase}`,
  ]);
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'stranger.key', '-out', 'stranger.crt', '-subj', '/CN=Otro', '-days', '2']);
  const read = (f: string) => readFileSync(join(dir, f));
  return {
    ca: read('ca.crt'),
    server: { key: read('server.key'), cert: read('server.crt') },
    client: {
      key: read('client.key'),
      cert: read('client.crt'),
      pfx: read('client.p12'),
      passphrase,
      pfxPath: join(dir, 'client.p12'),
      caPath: join(dir, 'ca.crt'),
    },
    stranger: { key: read('stranger.key'), cert: read('stranger.crt') },
  };
}

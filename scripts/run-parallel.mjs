#!/usr/bin/env node
// Runs shell commands at the same time and fails if any fails: `node scripts/run-parallel.mjs "<cmd>" "<cmd>" …`.
// Each command's output is printed whole when it ends (not interleaved), with its time; used by the
// static checks of `npm test` (the type checks and lint share CI's two cores instead of taking turns).
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs "<command>" …');
  process.exit(2);
}

const run = (command) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, {
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const ok = code === 0;
      process.stdout.write(`${ok ? '✓' : '✗'} ${command} (${seconds} s${ok ? '' : `, ${signal ?? `exit ${code}`}`})\n`);
      process.stdout.write(Buffer.concat(out));
      resolve(ok);
    });
  });

const results = await Promise.all(commands.map(run));
process.exit(results.every(Boolean) ? 0 : 1);

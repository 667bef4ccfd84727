#!/usr/bin/env node
// Runs shell commands at the same time and fails if any fails: `node scripts/run-parallel.mjs "<cmd>" "<cmd>" …`.
// Each command's output is printed whole when it ends (not interleaved), with its time. A command written
// `[label] <cmd>` streams instead, each line as it comes, after its label: for the long ones (the tests),
// whose progress a person wants to see. Used by `npm test`: the end-to-end tests mostly wait (on the browser
// and the server, one file at a time: about 0.6 of CI's two cores), so the type checks and lint run beside them.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs "<command>" "[label] <command>" …');
  process.exit(2);
}

const run = (spec) =>
  new Promise((resolve) => {
    const labelled = /^\[([^\]]+)\]\s+(.*)$/s.exec(spec);
    const command = labelled ? labelled[2] : spec;
    const prefix = labelled ? `[${labelled[1]}] ` : '';
    const started = Date.now();
    const child = spawn(command, {
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    const out = [];
    let partial = '';
    const stream = (d) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      if (lines.length) process.stdout.write(lines.map((l) => `${prefix}${l}\n`).join(''));
    };
    const take = labelled ? stream : (d) => out.push(d);
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code, signal) => {
      if (partial) process.stdout.write(`${prefix}${partial}\n`);
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const ok = code === 0;
      process.stdout.write(`${ok ? '✓' : '✗'} ${command} (${seconds} s${ok ? '' : `, ${signal ?? `exit ${code}`}`})\n`);
      if (!labelled) process.stdout.write(Buffer.concat(out));
      resolve(ok);
    });
  });

const results = await Promise.all(commands.map(run));
process.exit(results.every(Boolean) ? 0 : 1);

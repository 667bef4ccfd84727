// Preloaded (`node --import`) into a server the bench starts when it asks how long a request holds the
// others: the server's own event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every ms) and its
// garbage collector's pauses, read over a tiny HTTP server on BENCH_LOOP_PORT. The bench resets both
// before a window and reads them after it, so the load generator's own stalls on a shared machine are
// not counted as the server's (the slowest GET /health answer measured both).
import { createServer } from 'node:http';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const port = Number(process.env.BENCH_LOOP_PORT);
if (port > 0) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gcMaxMs = 0;
  let gcTotalMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMaxMs = Math.max(gcMaxMs, e.duration);
      gcTotalMs += e.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  const ms = (ns) => ns / 1e6;
  const server = createServer((req, res) => {
    if (req.url === '/reset') {
      delay.reset();
      gcMaxMs = 0;
      gcTotalMs = 0;
      res.end('{}');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        maxMs: ms(delay.max),
        p99Ms: ms(delay.percentile(99)),
        samples: delay.count,
        gcMaxMs,
        gcTotalMs,
      }),
    );
  });
  server.listen(port, '127.0.0.1');
  server.unref();
}

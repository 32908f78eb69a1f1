// Timing helpers shared by the benchmark suites.
export async function sample(iterations, fn, { warmup = Math.min(50, iterations), pauseMs = 0 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times = [];
  for (let i = 0; i < iterations; i++) {
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const start = process.hrtime.bigint();
    await fn(i);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return summarize(times);
}

export function summarize(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

export const ms = (value) => `${value.toFixed(value < 10 ? 3 : 1)} ms`;
export const ratio = (ours, baseline) => ours / baseline;

// The strict Prometheus text-format parser of the /metrics tests (test/helpers/prometheus-text.mjs):
// it reads what prom-client writes, labelled histograms included, and refuses what a Prometheus
// server would refuse, so a metrics test cannot pass on a broken exposition.
import t from 'tap';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.mjs';

t.test('reads prom-client output: counters, gauges, labelled histograms, escaped label values', async (t) => {
  const registry = new Registry();
  const counter = new Counter({ name: 'c_total', help: 'a counter\nwith a newline', labelNames: ['route'], registers: [registry] });
  const gauge = new Gauge({ name: 'g', help: 'a gauge', registers: [registry] });
  const histogram = new Histogram({ name: 'h_seconds', help: 'a histogram', labelNames: ['outcome'], buckets: [0.1, 1], registers: [registry] });
  counter.inc({ route: 'a "quoted" \\ path\nline' }, 3);
  gauge.set(Number.NaN);
  histogram.observe({ outcome: 'ok' }, 0.05);
  histogram.observe({ outcome: 'ok' }, 0.5);
  histogram.observe({ outcome: 'error' }, 5);
  const families = parsePrometheusText(await registry.metrics());
  t.equal(families.get('c_total').type, 'counter');
  t.equal(families.get('c_total').help, 'a counter\nwith a newline');
  t.equal(sampleValue(families, 'c_total', { route: 'a "quoted" \\ path\nline' }), 3);
  t.ok(Number.isNaN(sampleValue(families, 'g')), 'prom-client writes NaN as "Nan", which Prometheus reads');
  t.equal(sampleValue(families, 'h_seconds', { outcome: 'ok' }), 2, "a histogram's value is its _count, per label set");
  t.equal(sampleValue(families, 'h_seconds', { outcome: 'error' }), 1);
  t.equal(sampleValue(families, 'h_seconds', { outcome: 'timeout' }), 0, 'a series not seen yet is 0');
  t.throws(() => sampleValue(families, 'missing'), /no metric family missing/);
});

t.test('refuses a malformed exposition', async (t) => {
  const cases = [
    ['a sample without # TYPE', 'x 1\n', /without a # TYPE/],
    ['a bad metric name', '# TYPE 1x counter\n', /bad metric name/],
    ['a bad type', '# TYPE x countr\n', /bad type/],
    ['# TYPE after samples', '# TYPE x gauge\nx 1\n# TYPE x gauge\n', /TYPE after samples/],
    ['a value that is not a number', '# TYPE x gauge\nx one\n', /bad value/],
    ['an unquoted label value', '# TYPE x gauge\nx{a=1} 1\n', /not quoted/],
    ['a bad escape', '# TYPE x gauge\nx{a="\\t"} 1\n', /bad escape/],
    ['a label twice', '# TYPE x gauge\nx{a="1",a="2"} 1\n', /label a twice/],
    ['an unterminated label value', '# TYPE x gauge\nx{a="1} 1\n', /unterminated/],
    ['buckets that are not cumulative', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n', /not cumulative/],
    ['no +Inf bucket', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_count 1\n', /no \+Inf bucket/],
    ['+Inf differs from _count', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 1\n', /differs from _count/],
  ];
  for (const [label, text, error] of cases) t.throws(() => parsePrometheusText(text), error, label);
});

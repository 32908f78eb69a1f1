// A strict parser of the Prometheus text exposition format (version 0.0.4), for the tests of
// GET /metrics. Written here because the one on npm (parse-prometheus-text-format 1.1.1) merges
// the samples of a labelled histogram into one and drops their labels, counts and sums.
// It throws on anything a Prometheus server would refuse: a sample before its family's # TYPE,
// a bad metric or label name, a bad escape, a value that is not a number, a histogram whose
// buckets are not cumulative or whose +Inf bucket differs from its _count.

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** Reads `{a="1",b="x\"y"}` from `text` at `start` (just past the name); returns the labels and the index after `}`. */
function readLabels(text, start, line) {
  const labels = {};
  let index = start + 1;
  for (;;) {
    if (text[index] === '}') return { labels, end: index + 1 };
    const equals = text.indexOf('=', index);
    if (equals === -1) throw new Error(`bad labels in: ${line}`);
    const name = text.slice(index, equals);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name ${JSON.stringify(name)} in: ${line}`);
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    if (text[equals + 1] !== '"') throw new Error(`label value not quoted in: ${line}`);
    let value = '';
    let at = equals + 2;
    for (;;) {
      const char = text[at];
      if (char === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (char === '"') break;
      if (char === '\\') {
        const next = text[at + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape \\${next} in: ${line}`);
        at += 2;
      } else {
        value += char;
        at += 1;
      }
    }
    labels[name] = value;
    index = at + 1;
    if (text[index] === ',') index += 1;
    else if (text[index] !== '}') throw new Error(`expected , or } in: ${line}`);
  }
}

function parseValue(raw, line) {
  // As Go's strconv.ParseFloat, which Prometheus uses: any case (prom-client writes "Nan").
  if (/^\+?inf$/i.test(raw)) return Infinity;
  if (/^-inf$/i.test(raw)) return -Infinity;
  if (/^nan$/i.test(raw)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) throw new Error(`bad value ${JSON.stringify(raw)} in: ${line}`);
  return Number(raw);
}

/**
 * Parses an exposition into `Map<family name, { name, type, help, samples: [{ name, labels, value }] }>`.
 * A histogram's samples are its `_bucket`, `_sum` and `_count` lines.
 */
export function parsePrometheusText(text) {
  const families = new Map();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) ([^ ]+) ?(.*)$/.exec(line);
      if (match === null) continue; // a comment
      const [, keyword, name, rest] = match;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const family = families.get(name) ?? { name, type: undefined, help: undefined, samples: [] };
      families.set(name, family);
      if (keyword === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`bad type in: ${line}`);
        if (family.type !== undefined || family.samples.length > 0) throw new Error(`# TYPE after samples or twice: ${line}`);
        family.type = rest;
      } else {
        family.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      }
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`bad sample name in: ${line}`);
    let labels = {};
    let rest = line.slice(nameEnd);
    if (rest.startsWith('{')) {
      const read = readLabels(line, nameEnd, line);
      labels = read.labels;
      rest = line.slice(read.end);
    }
    const fields = rest.trim().split(/ +/);
    if (fields.length < 1 || fields.length > 2) throw new Error(`bad sample in: ${line}`);
    const value = parseValue(fields[0], line);
    const familyName = [...families.keys()].reverse().find((known) => name === known
      || (['histogram', 'summary'].includes(families.get(known).type) && [`${known}_bucket`, `${known}_sum`, `${known}_count`].includes(name)));
    if (familyName === undefined) throw new Error(`sample without a # TYPE: ${line}`);
    families.get(familyName).samples.push({ name, labels, value });
  }
  for (const family of families.values()) {
    if (family.type === undefined) throw new Error(`${family.name} has no # TYPE`);
    if (family.type === 'histogram') checkHistogram(family);
  }
  return families;
}

/** Buckets are cumulative and end with +Inf, which equals _count, for each label set. */
function checkHistogram(family) {
  const series = new Map();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [], count: undefined };
    series.set(key, entry);
    if (sample.name.endsWith('_bucket')) entry.buckets.push([parseValue(le, `le of ${family.name}`), sample.value]);
    if (sample.name.endsWith('_count')) entry.count = sample.value;
  }
  for (const [key, { buckets, count }] of series) {
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i][0] <= buckets[i - 1][0] || buckets[i][1] < buckets[i - 1][1]) throw new Error(`${family.name} ${key}: buckets not cumulative`);
    }
    if (buckets.at(-1)?.[0] !== Infinity) throw new Error(`${family.name} ${key}: no +Inf bucket`);
    if (buckets.at(-1)[1] !== count) throw new Error(`${family.name} ${key}: +Inf bucket ${buckets.at(-1)[1]} differs from _count ${count}`);
  }
}

/**
 * The value of the sample of family `name` whose labels include `labels`: a histogram's `_count`.
 * 0 when no sample matches (a labelled series appears with its first event). Throws for an unknown family.
 */
export function sampleValue(families, name, labels = {}) {
  const family = families.get(name);
  if (family === undefined) throw new Error(`no metric family ${name}`);
  const wanted = family.type === 'histogram' ? `${name}_count` : name;
  const sample = family.samples.find((candidate) => candidate.name === wanted
    && Object.entries(labels).every(([key, value]) => candidate.labels[key] === value));
  return sample === undefined ? 0 : sample.value;
}

// Generators of odd JSON values, bodies, path segments and headers for the hostile-input fuzzer
// (test/reliability/fuzz.test.mjs). Everything a generator can produce is harmless to run: code is
// drawn from a fixed list of inert cells, commands from inert programs, file paths stay inside the
// fuzzer's own temporary folder, so a request that happens to be valid does no damage.
import fc from 'fast-check';

/** Cells that finish at once and touch nothing: values, a syntax error, a thrown error. */
export const HARMLESS_CODE = ['1+1', '"x"', '42', 'let', ')(', 'throw new Error("fuzz")', '', ' ', '\u0000', '\ud800', 'return 1', 'null'];

/** Every JSON type, with edge values of each (lone surrogates and NUL in strings, huge and negative numbers). */
export const oddString = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', '\ud800', '\udfff', '\ufeff', '\u2028', 'a'.repeat(300), '__proto__', 'constructor', '%00', '../..', '\r\n'),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
export const oddNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MIN_VALUE, 301, 259201),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
export const jsonLeaf = fc.oneof(fc.constant(null), fc.boolean(), oddNumber, oddString);
export const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonLeaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(oddString, tie('value'), { maxKeys: 4 }),
})).value;

/** One value of each JSON type, for "replace this field with every other type". */
export const VALUE_OF_TYPE = {
  null: fc.constant(null),
  boolean: fc.boolean(),
  integer: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 53 + 1)),
  number: fc.constantFrom(1.5, -0.25, 1e308),
  string: oddString,
  array: fc.array(jsonLeaf, { maxLength: 3 }),
  object: fc.dictionary(oddString, jsonLeaf, { maxKeys: 3 }),
};

/** The JSON types a (resolved) schema node accepts; an empty schema accepts all of them. */
export function typesOf(schema, resolve) {
  const node = resolve(schema);
  if (node.oneOf !== undefined || node.anyOf !== undefined) return [...new Set((node.oneOf ?? node.anyOf).flatMap((part) => typesOf(part, resolve)))];
  if (node.type === undefined) return Object.keys(VALUE_OF_TYPE);
  const types = [node.type].flat();
  // An integer is also a number, so a float is the "other type" of an integer field.
  return types.includes('number') ? [...types, 'integer'] : types;
}

/** Bodies that are not JSON, or JSON the parser chokes on: bad syntax, bad bytes, absurd nesting. */
export const garbageBody = fc.oneof(
  fc.constantFrom(
    '{', '{"a":', '[1,]', '{"a":1,}', 'nul', 'undefined', "{'a':1}", '{"a":NaN}', '{"a":Infinity}', '1e99999', '"\\ud800"',
    '{"code":"\\u0000"}', '\u0000', '\ufeff{}', '{"a":"\\x41"}', '{"a":1}{"b":2}', '[]', 'null', 'true', '"str"', '0',
    '['.repeat(100_000), '{"a":'.repeat(20_000), `${'['.repeat(2000)}${']'.repeat(2000)}`,
  ).map((text) => Buffer.from(text, 'utf8')),
  // Invalid UTF-8: a lone continuation byte, an overlong encoding, a truncated sequence, an encoded surrogate.
  fc.constantFrom([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d], [0xc0, 0xaf], [0x7b, 0xe2, 0x82], [0x22, 0xed, 0xa0, 0x80, 0x22], [0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])
    .map((bytes) => Buffer.from(bytes)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ unit: 'binary', maxLength: 64 }).map((text) => Buffer.from(text, 'utf8')),
);

/** Keys that pollute a prototype when a server merges bodies carelessly. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
export const pollutionPayload = fc.constantFrom(
  '{"__proto__":{"fuzzPolluted":true}}',
  '{"constructor":{"prototype":{"fuzzPolluted":true}}}',
  '{"prototype":{"fuzzPolluted":true}}',
);

/** A path segment as sent on the wire: sometimes %-encoded properly, often deliberately not. */
export const oddSegment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2E%2E%2F', '%2F', '%5C', '%00', '%ZZ', '%', '%E0%A4%A', '%ED%A0%80', '%F0%9F%98%80', '%20', '+', ';', '%3B',
    'a'.repeat(4000), 'x%2F..%2F..', '__proto__', 'constructor', 'DEFAULT', 'default%00'),
  fc.string({ unit: 'binary', maxLength: 24 }).map(encodeLossy),
  fc.webSegment(),
);

/** encodeURIComponent, except that lone surrogates become their (invalid) UTF-8 bytes. */
function encodeLossy(text) {
  return [...text].map((char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    }
  }).join('');
}
export { encodeLossy };

/** Content types of every kind; the JSON routes must refuse or parse each without a 5xx. */
export const contentType = fc.constantFrom(
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json; charset=latin1',
  'application/json; charset=bogus', 'text/plain', 'text/event-stream', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/octet-stream', 'application/*', '*/*', ';;;', 'application/json;;', undefined,
);
export const acceptHeader = fc.constantFrom(undefined, 'application/json', 'text/event-stream', 'text/event-stream;q=0.9, application/json', '*/*', 'text/html', ',,,', 'text/event-stream; charset=utf-8');
export const contentEncoding = fc.constantFrom(undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'identity', 'bogus');

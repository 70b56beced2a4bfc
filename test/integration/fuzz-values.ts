import fc from 'fast-check';
import type { Kind } from './fuzz-routes.js';

/** Values each wrong for a field, query key or path parameter of a kind (the fuzz suite, fuzz.test.ts). */

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const CONTROL = fc.constantFrom('\u0000', 'a\u0000b', 'x\u001b[31m', '\u0007bell', 'del\u007f', 'n\u0001');
const HUGE = fc.integer({ min: 10_001, max: 300_000 }).map((n) => 'x'.repeat(n));
export const DEEP = fc.integer({ min: 65, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);
const BAD_DATES = ['0000-01-01', '0100-01-01', '9999-12-31', '2024-02-30', '1899-12-31', '2201-01-01', '2024-1-1', '24-01-01'];
const BAD_DATETIMES = [
  '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '+275760-09-13T00:00:00.000Z', '2024-01-01T25:00:00Z', '2024-01-01',
  '1899-12-31T23:00:00Z', '2024-01-01T00:00:00', 'yesterday',
];
/** Wrong for a field that takes a date or a date-time, zone or not. */
// (The dashboard reads operator-typed times with Date.parse, so an unpadded `2024-1-1` is a date there.)
const BAD_WHENS = [...BAD_DATES, ...BAD_DATETIMES].filter((v) => !['2024-01-01', '2024-01-01T00:00:00', '2024-1-1'].includes(v));
const BAD_BASE64 = ['not base64!', '=====', 'ab=cd', '../../etc/passwd', '%%%'];
const BAD_INTS = [2_147_483_648, -2_147_483_649, 1e300, 1.5, 2 ** 53 + 2];
const BAD_UUIDS = ['x', '../../etc/passwd', '00000000-0000-0000-0000-00000000000g', `${crypto.randomUUID()}0`, ''];
const b64 = (s: string) => Buffer.from(s).toString('base64url');
const BAD_CURSORS = [
  b64(JSON.stringify(['created_at', 'asc', '0000-01-01 00:00:00+00', crypto.randomUUID()])),
  b64(JSON.stringify(['created_at', 'asc', '2024-01-01 99:99:99+00', crypto.randomUUID()])),
  b64(JSON.stringify(['price', 'asc', `1${'0'.repeat(500)}`, crypto.randomUUID()])),
  b64(JSON.stringify(['price', 'asc', '1', "x' or 1=1 --"])),
  b64(`0000-01-01T00:00:00.000Z|${crypto.randomUUID()}`),
  b64(`+275760-09-13T00:00:00.000Z|${crypto.randomUUID()}`),
  b64('{"deep":[[[[[[[[[[[[[[]]]]]]]]]]]]]]}'),
  b64(JSON.stringify({ after: '0000-01-01T00:00:00Z' })), b64(JSON.stringify({ after: '9999-12-31T23:59:59Z' })), b64(JSON.stringify({ after: 1e300 })), '!!!not-base64', '', 'a'.repeat(3000),
];

/** A JSON value wrong for a body field of this kind. */
export function badJsonValue(kind: Kind): fc.Arbitrary<unknown> {
  const wrongType: fc.Arbitrary<unknown> =
    kind === 'int' || kind === 'number' ? fc.oneof(fc.string(), fc.boolean(), fc.constant({}))
      : kind === 'bool' ? fc.oneof(fc.constantFrom('true', 'yes'), fc.integer(), fc.constant([]))
        : kind === 'array' ? fc.oneof(fc.string({ minLength: 1 }), fc.integer(), fc.constant({}), fc.constant(Array(5000).fill(1)))
          : fc.oneof(fc.integer(), fc.boolean(), fc.constant([]), fc.constant({ $ne: '' }));
  const specific: Record<Kind, fc.Arbitrary<unknown>[]> = {
    uuid: [fc.constantFrom(...BAD_UUIDS)],
    name: [fc.constantFrom('', '   '), fc.integer({ min: 2001, max: 9000 }).map((n) => 'a'.repeat(n))],
    text: [],
    date: [fc.constantFrom(...BAD_DATES)],
    dob: [fc.constantFrom(...BAD_DATES, day(1), day(400))],
    datetime: [fc.constantFrom(...BAD_DATETIMES)],
    when: [fc.constantFrom(...BAD_WHENS)],
    int: [fc.constantFrom(...BAD_INTS)],
    number: [fc.constantFrom(1e300, -1)],
    base64: [fc.constantFrom(...BAD_BASE64)],
    bool: [],
    enum: [fc.constantFrom('zzz-not-a-value', '', 'TESTKIT')],
    array: [],
    cursor: [fc.constantFrom(...BAD_CURSORS)],
    pathString: [],
  };
  // A long run of one letter is valid base64: for base64 fields only the other values are wrong.
  return fc.oneof(wrongType, CONTROL, ...(kind === 'base64' ? [] : [HUGE]), fc.constant('__DEEP__'), ...specific[kind]);
}

/** A query value (already URL-encoded) wrong for a key of this kind. */
export function badQueryValue(kind: Kind): fc.Arbitrary<string> {
  const e = encodeURIComponent;
  const specific: Record<Kind, string[]> = {
    uuid: BAD_UUIDS.filter((v) => v !== '').map(e),
    name: ['', e('a'.repeat(3000))],
    text: [e('a'.repeat(3000))],
    date: BAD_DATES.map(e),
    dob: BAD_DATES.map(e),
    datetime: BAD_DATETIMES.map(e),
    when: BAD_WHENS.map(e),
    int: ['2147483648', '-2147483649', '1e400', 'abc', '1.5', '99999999999999999999', ''],
    number: ['-1', '1e400', 'abc', 'Infinity', ''],
    base64: BAD_BASE64.map(e),
    bool: ['maybe', '2'],
    enum: ['zzz-not-a-value', 'TESTKIT'],
    array: ['zzz'],
    cursor: BAD_CURSORS.map(e),
    pathString: [e('a'.repeat(3000))],
  };
  return fc.oneof(fc.constantFrom('%00', 'a%00b', '%1b%5B31m', '%7f', '%0d%0aX-Injected:%201'), fc.constantFrom(...specific[kind]));
}

/** A form field value (not yet encoded) wrong for a field of this kind. */
export function badFormValue(kind: Kind): fc.Arbitrary<string> {
  const specific: Record<Kind, string[]> = {
    uuid: BAD_UUIDS,
    name: ['', 'a'.repeat(3000)],
    text: ['a'.repeat(20_000)],
    date: BAD_DATES,
    dob: BAD_DATES,
    datetime: BAD_DATETIMES,
    when: BAD_WHENS,
    int: ['2147483648', '-1', '1e400', 'abc', ''],
    number: ['-1', '1e400', 'abc'],
    base64: BAD_BASE64,
    bool: ['maybe'],
    enum: ['zzz-not-a-value', '', 'TESTKIT'],
    array: ['zzz'],
    cursor: BAD_CURSORS,
    pathString: ['a'.repeat(3000)],
  };
  return fc.oneof(CONTROL, fc.constantFrom(...specific[kind]));
}

/** A path parameter (already URL-encoded) wrong for its kind: traversal, NUL, overflow, junk. */
export function badPathValue(kind: Kind): fc.Arbitrary<string> {
  // (A bare `%2e%2e` segment is `..` to the client's URL parser, which resolves it before sending.)
  const common = ['%00', 'a%00b', '%0a', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e%2fhealth', 'a'.repeat(3000)];
  const specific: Record<string, string[]> = {
    uuid: ['x', '2147483648', `${crypto.randomUUID()}0`, "1'%20or%20'1'%3D'1"],
    int: ['2147483648', '99999999999999999999', '-1', '0', 'abc', '1e3', '1.5'],
    pathString: [],
  };
  return fc.constantFrom(...common, ...(specific[kind] ?? []));
}


const MULTIPART_BOUNDARY = 'fuzzboundary';
function multipart(parts: { name: string; filename?: string; type?: string; content: string }[]): string {
  const lines = parts.map((p) => {
    const disp = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    return `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: ${disp}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.content}\r\n`;
  });
  return `${lines.join('')}--${MULTIPART_BOUNDARY}--\r\n`;
}

export function badMultipart(userId: string): fc.Arbitrary<{ what: string; contentType: string; body: string }> {
  const type = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;
  const png = '\u0089PNG\r\n\u001a\n';
  const user = () => userId;
  return fc.oneof(
    fc.constant({ what: 'multipart without boundary', contentType: 'multipart/form-data', body: 'garbage' }),
    fc.constant({ what: 'truncated multipart', contentType: type, body: `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4` }),
    fc.constant({ what: 'JSON sent as multipart', contentType: type, body: '{"user_id": "x"}' }),
    CONTROL.map((c) => ({ what: 'control character in user_id', contentType: type, body: multipart([{ name: 'user_id', content: c }, { name: 'file', filename: 'a.pdf', content: '%PDF-1.4' }]) })),
    CONTROL.map((c) => ({ what: 'control character in file name', contentType: type, body: multipart([{ name: 'user_id', content: user() }, { name: 'file', filename: `a${c}.png`, type: 'image/png', content: png }]) })),
    fc.constant({ what: 'file name of 5,000 characters', contentType: type, body: multipart([{ name: 'user_id', content: user() }, { name: 'file', filename: `${'n'.repeat(5000)}.png`, content: png }]) }),
    fc.constant({ what: 'traversal in file name', contentType: type, body: multipart([{ name: 'user_id', content: user() }, { name: 'file', filename: '../../../../etc/passwd', content: 'root:x:0:0' }]) }),
    fc.constant({ what: 'empty file', contentType: type, body: multipart([{ name: 'user_id', content: user() }, { name: 'file', filename: 'a.pdf', content: '' }]) }),
    fc.constant({ what: 'nine files', contentType: type, body: multipart([{ name: 'user_id', content: user() }, ...Array.from({ length: 9 }, () => ({ name: 'file', filename: 'p.png', content: png }))]) }),
    fc.constant({ what: 'broken PNG', contentType: type, body: multipart([{ name: 'user_id', content: user() }, { name: 'file', filename: 'p.png', type: 'image/png', content: `${png}\u0000\u0000` }]) }),
    fc.constant({ what: 'file as text field', contentType: type, body: multipart([{ name: 'user_id', content: user() }, { name: 'file', content: 'not a file' }]) }),
    fc.constantFrom('maybe', 'a'.repeat(5000)).map((v) => ({ what: 'bad needs_human_review', contentType: type, body: multipart([{ name: 'user_id', content: user() }, { name: 'needs_human_review', content: v }, { name: 'file', filename: 'p.png', content: png }]) })),
  );
}

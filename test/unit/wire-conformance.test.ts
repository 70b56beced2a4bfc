import { describe, expect, it } from 'vitest';
import { compareShape, loadHostedShapes, parseShapes } from '../support/wire-conformance.js';

const shapes = parseShapes(`
- \`Order\`: id str, events Event[], physician? Physician, tags? str[], meta? Record<str, unknown>, total num
- \`Event\`: id num, status str, status_detail? str
- \`Physician\`: first_name str, npi str
`);

describe('wire conformance comparison', () => {
  it('finds nothing wrong with a body that has every key, optional ones null', () => {
    const c = compareShape({ id: 'o', events: [{ id: 1, status: 's', status_detail: null }], physician: null, tags: null, meta: null, total: 2, extra: 1 }, 'Order', shapes);
    expect(c).toEqual({ expected: ['id', 'events', 'events[].id', 'events[].status', 'events[].status_detail', 'physician', 'tags', 'meta', 'total'], missing: [], typeDiffs: [] });
  });

  it('reports a missing key, at any depth, and in any element of an array', () => {
    const c = compareShape({ id: 'o', events: [{ id: 1, status: 's', status_detail: null }, { id: 2, status: 's' }], physician: { first_name: 'A' }, total: 1 }, 'Order', shapes);
    expect(c.missing).toEqual(['events[].status_detail', 'physician.npi', 'tags', 'meta']);
    expect(c.typeDiffs).toEqual([]);
  });

  it('reports a JSON type that differs, and null in a required key', () => {
    const c = compareShape({ id: 7, events: {}, physician: 'dr', tags: [1], meta: {}, total: null }, 'Order', shapes);
    expect(c.typeDiffs).toEqual(['id: expected string, got number', 'events: expected array, got object', 'physician: expected object, got string', 'tags[]: expected string, got number', 'total: expected number, got null']);
  });

  it('reads every shape of the fixture, each field typed', () => {
    const hosted = loadHostedShapes();
    expect(hosted.size).toBeGreaterThan(30);
    expect(hosted.get('ClientFacingMarker')!.map((f) => f.name)).toContain('aoe');
    expect(hosted.get('ClientFacingOrder')!.find((f) => f.name === 'physician')).toEqual({ name: 'physician', optional: true, type: 'ClientFacingPhysician' });
  });
});

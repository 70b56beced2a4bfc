import type { DbOrTx } from '../../../db/client.js';
import { findMarkersByIds, findMarkersByProviderIds, type MarkerRow } from '../../../db/queries/catalog.js';
import { ValidationError, type ValidationItem } from '../../errors.js';

/**
 * The markers a request names by marker id and/or provider id, all at one lab (a lab test and an
 * order set are performed by one lab). Marker ids must exist. Provider ids are a lab's own test codes:
 * they are looked up at the lab already known (from `knownLabId`, the marker ids, …), else at the one
 * lab that offers them all. Anything that does not fit is a 422 naming the offending field.
 */
export async function resolveMarkers(
  db: DbOrTx,
  selection: { markerIds?: number[] | null | undefined; providerIds?: string[] | null | undefined },
  options: { knownLabId?: number | undefined; loc: (string | number)[]; ambiguityHint: string },
): Promise<{ labId: number | undefined; markers: MarkerRow[] }> {
  const { loc } = options;
  const issues: ValidationItem[] = [];
  const markerIds = selection.markerIds ?? [];
  const byId = await findMarkersByIds(db, [...new Set(markerIds)]);
  const found = new Map(byId.map((m) => [m.id, m]));
  markerIds.forEach((id, i) => {
    if (!found.has(id)) issues.push({ loc: [...loc, 'marker_ids', i], msg: `marker ${id} does not exist`, type: 'value_error', input: id });
  });

  const labs = new Set(byId.map((m) => m.labId));
  if (options.knownLabId !== undefined) labs.add(options.knownLabId);
  if (labs.size > 1) {
    issues.push({ loc: [...loc, 'marker_ids'], msg: `the markers must all be at one lab (these are at labs ${[...labs].sort().join(', ')})`, type: 'value_error' });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  let labId = labs.size === 1 ? [...labs][0] : undefined;

  const providerIds = selection.providerIds ?? [];
  let byProvider: MarkerRow[] = [];
  if (providerIds.length > 0) {
    const wanted = [...new Set(providerIds)];
    const candidates = await findMarkersByProviderIds(db, wanted, labId);
    if (labId === undefined) {
      // No lab named yet: the provider ids must all be offered by exactly one lab.
      const perLab = new Map<number, Set<string>>();
      for (const m of candidates) perLab.set(m.labId, (perLab.get(m.labId) ?? new Set()).add(m.providerId));
      const complete = [...perLab].filter(([, ids]) => ids.size === wanted.length).map(([id]) => id);
      if (complete.length > 1) {
        throw new ValidationError([
          { loc: [...loc, 'provider_ids'], msg: `labs ${complete.sort().join(', ')} all offer these provider ids: ${options.ambiguityHint}`, type: 'value_error' },
        ]);
      }
      labId = complete[0];
    }
    byProvider = labId === undefined ? [] : candidates.filter((m) => m.labId === labId);
    const offered = new Set(byProvider.map((m) => m.providerId));
    providerIds.forEach((pid, i) => {
      if (!offered.has(pid)) {
        const where = labId === undefined ? 'no single lab offers all the provider ids' : `lab ${labId} has no marker with provider id ${pid}`;
        issues.push({ loc: [...loc, 'provider_ids', i], msg: where, type: 'value_error', input: pid });
      }
    });
    if (issues.length > 0) throw new ValidationError(issues);
  }

  const markers = new Map<number, MarkerRow>();
  for (const m of [...byId, ...byProvider]) markers.set(m.id, m);
  return { labId, markers: [...markers.values()] };
}

import type { DbOrTx } from '../../../db/client.js';
import { markersOfLabTests } from '../../../db/queries/catalog.js';
import { checkAoeAnswers, type AoeAnswer } from '../../../domain/orders/aoe.js';
import { ValidationError } from '../../errors.js';

/**
 * The `aoe_answers` of a new order, checked against its lab test's markers (domain/orders/aoe.ts):
 * 422 naming every problem (an unknown marker or question, an answer that does not fit, a required
 * question left out). Answers in marker and question order, or null when the order carries none.
 */
export async function checkedAoeAnswers(db: DbOrTx, labTestId: string, answers: AoeAnswer[]): Promise<AoeAnswer[] | null> {
  const markers = (await markersOfLabTests(db, [labTestId])).get(labTestId) ?? [];
  const checked = checkAoeAnswers(markers, answers);
  if (checked.issues.length > 0) throw new ValidationError(checked.issues);
  return checked.answers.length > 0 ? checked.answers : null;
}

/**
 * Advance Beneficiary Notice of Noncoverage (CMS-R-131): given to a Medicare patient before a test
 * Medicare may not pay for, so the patient can choose to have it and pay. An order has one when it is
 * billed to insurance and its payor is a Medicare plan.
 */
export function orderHasAbn(order: { billingType: string; payorCode: string | null }): boolean {
  return order.billingType === 'commercial_insurance' && order.payorCode !== null && order.payorCode.startsWith('MEDICARE');
}

/** Cancellation reasons with fixed ids (BEHAVIOUR §5): stable across deployments, so clients may store them. */
export const PHLEBOTOMY_CANCELLATION_REASONS = [
  { id: '5b2f7a4e-0d1c-4b7e-9a51-2f3c1e0a9b01', name: 'Patient is no longer available at this time', is_refundable: true },
  { id: '5b2f7a4e-0d1c-4b7e-9a51-2f3c1e0a9b02', name: 'Patient no longer needs the test', is_refundable: true },
  { id: '5b2f7a4e-0d1c-4b7e-9a51-2f3c1e0a9b03', name: 'Appointment booked by mistake', is_refundable: true },
  { id: '5b2f7a4e-0d1c-4b7e-9a51-2f3c1e0a9b04', name: 'Other', is_refundable: false },
] as const;

/** The sandbox PSC provider has a single reason, "Other" (BEHAVIOUR §5). */
export const PSC_CANCELLATION_REASONS = [{ id: '8d0e4c3a-6f1b-4a2e-b7c9-1e5d2f4a6c01', name: 'Other', is_refundable: true }] as const;

export type CancellationReason = { id: string; name: string; is_refundable: boolean };

export function findReason(type: 'phlebotomy' | 'patient_service_center', id: string): CancellationReason | undefined {
  const list: readonly CancellationReason[] = type === 'phlebotomy' ? PHLEBOTOMY_CANCELLATION_REASONS : PSC_CANCELLATION_REASONS;
  return list.find((r) => r.id === id);
}

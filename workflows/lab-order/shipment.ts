import type { ShipmentEvent } from '../../domain/orders/testkit-lifecycle.js';
import type { ShipmentUpdate } from './definitions.js';

/** The shipment record shown in `details.data.shipment` (CONTRACT ClientFacingShipment). */
export interface ShipmentRecord {
  id: string;
  outbound_courier: string | null;
  outbound_tracking_number: string | null;
  outbound_tracking_url: string | null;
  inbound_courier: string | null;
  inbound_tracking_number: string | null;
  inbound_tracking_url: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

const OUTBOUND: ReadonlySet<ShipmentEvent> = new Set([
  'transit_customer', 'out_for_delivery', 'with_customer', 'problem_in_transit_customer', 'failure_to_deliver_to_customer',
]);

/** Folds a courier update into the shipment record: outbound legs fill outbound_*, the way back inbound_*. */
export function shipmentPatch(prev: ShipmentRecord | null, update: ShipmentUpdate, newId: string, nowIso: string): ShipmentRecord {
  const base: ShipmentRecord = prev ?? {
    id: newId,
    outbound_courier: null,
    outbound_tracking_number: null,
    outbound_tracking_url: null,
    inbound_courier: null,
    inbound_tracking_number: null,
    inbound_tracking_url: null,
    notes: null,
    created_at: nowIso,
    updated_at: nowIso,
  };
  const dir = OUTBOUND.has(update.event) ? 'outbound' : 'inbound';
  return {
    ...base,
    [`${dir}_courier`]: update.courier ?? base[`${dir}_courier`],
    [`${dir}_tracking_number`]: update.trackingNumber ?? base[`${dir}_tracking_number`],
    [`${dir}_tracking_url`]: update.trackingUrl ?? base[`${dir}_tracking_url`],
    notes: update.notes ?? base.notes,
    updated_at: nowIso,
  };
}

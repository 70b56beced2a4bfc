import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { NewOrder } from '../../db/queries/orders.js';
import type { DrawState } from '../../domain/orders/draw-lifecycle.js';
import type { OrderDeadlines } from '../../domain/orders/lifecycle.js';
import type { CollectionMethod, LowLevelStatus } from '../../domain/orders/status.js';
import type { ShipmentEvent, TestkitState } from '../../domain/orders/testkit-lifecycle.js';
import { SERVICE_TASK_QUEUE, TASK_QUEUES } from '../../domain/temporal.js';

/** The queue new runs start on (their activities run there too). */
export const taskQueue = TASK_QUEUES.orders;
/** The queue of runs started before per-workload queues (children of such runs start there). */
export const legacyTaskQueue = SERVICE_TASK_QUEUE;
export const labOrderWorkflowType = 'labOrderWorkflow';

/** One workflow per order, for the order's whole life. */
export const labOrderWorkflowId = (orderId: string): string => `lab-order-${orderId}`;

export interface LabOrderInput {
  orderId: string;
  teamId: string;
  method: CollectionMethod;
  registrable: boolean;
  /** Imported order (`POST /v3/order/import`): `requisition_bypassed` instead of `requisition_created`. Absent in older histories. */
  imported?: boolean;
  /** An initial walk-in order at a lab that offers redraws. */
  redraw?: boolean;
  /** YYYY-mm-dd: a scheduled order stays `ordered` until this date. */
  activateBy: string | null;
  /** The order row to create (JSON-safe), and the idempotency key it was created under. */
  record: NewOrder;
  idempotency: { key: string; requestHash: string } | null;
  /**
   * Set when the API recorded the order itself (its row, first events and their webhook events) right after
   * starting this workflow: the ids of those webhook events, so the workflow's own creating step writes the
   * very same rows (a no-op when the API's commit came first, the whole record when the API's write was
   * lost) and announces them. Absent in older histories: the workflow draws the ids itself.
   */
  recorded?: { outboxEventId: string; then: string[] };
  /**
   * The workflow was started with its search attributes (team, method, user, and the status its creation
   * leaves it in), so its first task does not upsert them. Absent in older histories and other starters.
   */
  searchAttributesAtStart?: boolean;
  /** Durable deadlines, in seconds (defaults from the domain; tests shorten them). */
  deadlines?: Partial<LabOrderDeadlines>;
}

/** The order's durable deadlines (defaults live once, in domain/orders/lifecycle.ts). */
export type LabOrderDeadlines = OrderDeadlines;

export interface ShipmentUpdate {
  event: ShipmentEvent;
  courier?: string | null;
  trackingNumber?: string | null;
  trackingUrl?: string | null;
  notes?: string | null;
  statusDetail?: string | null;
}

export interface RegistrationInput {
  sampleId: string;
  userId: string;
  patientDetails: Record<string, unknown>;
  patientAddress: Record<string, unknown>;
  physician: Record<string, unknown> | null;
  consents: unknown[] | null;
  healthInsurance: Record<string, unknown> | null;
}

export interface BiomarkerResultInput {
  name: string;
  slug?: string;
  result: string;
  type: 'numeric' | 'range' | 'comment' | 'coded_value';
  unit?: string | null;
  reference_range?: string | null;
  min_range_value?: number | null;
  max_range_value?: number | null;
  is_above_max_range?: boolean | null;
  is_below_min_range?: boolean | null;
  interpretation?: string | null;
  loinc?: string | null;
  loinc_slug?: string | null;
}

export interface ResultsInput {
  final: boolean;
  interpretation: 'normal' | 'abnormal' | 'critical';
  results: BiomarkerResultInput[];
  missingResults?: { name: string; slug: string; inferred_failure_type: string; note?: string | null }[];
}

export interface SimulationRequest {
  target: LowLevelStatus;
  delaySeconds: number;
  interpretation: 'normal' | 'abnormal' | 'critical';
  resultTypes: ('numeric' | 'range' | 'comment' | 'coded_value')[] | null;
  hasMissingResults: boolean;
}

export interface LabOrderState {
  orderId: string;
  method: CollectionMethod;
  low: LowLevelStatus;
  /** The lifecycle's state (its shape depends on the method). */
  lifecycle: TestkitState | DrawState;
  /** The same state for testkit orders (what courier and lab reports are checked against), else null. */
  testkit: TestkitState | null;
  /** Number of events recorded so far (the last event's id). */
  events: number;
  /** What the order is waiting for now, in words (for operators and the dashboard). */
  waitingFor: string;
  simulationTarget: LowLevelStatus | null;
}

/** Partner reports from couriers and labs: the workflow checks each against its state and ignores what does not fit. */
export const shipmentSignal = defineSignal<[ShipmentUpdate]>('shipment');
export const sampleErrorSignal = defineSignal<[{ statusDetail: string | null }]>('sampleError');
export const resultsSignal = defineSignal<[ResultsInput]>('results');

/**
 * A partner's report (courier, lab, operator, appointment provider: api/routes/partner) as an Update: the
 * workflow's validator checks it against the order's state, so the caller learns accept or refuse from
 * the workflow itself; the update completes once the report is recorded.
 */
export type PartnerReport =
  | { kind: 'shipment'; update: ShipmentUpdate }
  | { kind: 'results'; results: ResultsInput }
  | { kind: 'sample_error'; statusDetail: string | null }
  /** The appointment's provider: the phlebotomist or PSC started the draw, finished it, or the patient did not come. */
  | { kind: 'appointment'; status: 'in_progress' | 'completed' | 'no_show'; notes: string | null };
export const partnerReportUpdate = defineUpdate<{ low: LowLevelStatus; events: number }, [PartnerReport]>('partnerReport');

/** Caller-facing changes that must be accepted or refused synchronously. */
export const registerUpdate = defineUpdate<{ low: LowLevelStatus }, [RegistrationInput]>('register');
export const cancelUpdate = defineUpdate<{ low: LowLevelStatus }, [{ as: 'cancelled' | 'do_not_process' }]>('cancel');
/** An appointment change asked of the order (CONTRACT §6); the workflow checks it against the order's state. */
export type AppointmentChange =
  | { action: 'book' | 'reschedule'; type: 'phlebotomy' | 'patient_service_center'; bookingKey: string; notes: string | null; accessNotes: string | null }
  | { action: 'request'; type: 'phlebotomy'; provider: 'getlabs' | 'phlebfinders'; address: Record<string, unknown>; notes: string | null; accessNotes: string | null }
  | { action: 'cancel'; type: 'phlebotomy' | 'patient_service_center'; reasonId: string; notes: string | null }
  /** A reserved appointment (booked before the requisition) is confirmed once the requisition exists. */
  | { action: 'confirm' }
  /** Reported by the appointment's provider (partner API): the draw began, or it is done. */
  | { action: 'progress'; status: 'in_progress' | 'completed'; notes: string | null };
/** The changes a customer may ask for (the API); the others come from the workflow or the provider. */
export type CallerAppointmentChange = Extract<AppointmentChange, { action: 'book' | 'request' | 'reschedule' | 'cancel' }>;
export const appointmentUpdate = defineUpdate<{ appointmentId: string }, [CallerAppointmentChange]>('appointment');

/** On-site collection: the customer's staff drew the sample (PATCH /v3/order/{id}/draw_completed). */
export const drawCompletedUpdate = defineUpdate<{ low: LowLevelStatus }>('drawCompleted');
export const simulateUpdate = defineUpdate<{ accepted: true }, [SimulationRequest]>('simulate');
/** Completes once the order row exists (used with update-with-start by POST /v3/order*). */
export const createdUpdate = defineUpdate<{ orderId: string }>('created');

export const stateQuery = defineQuery<LabOrderState>('state');

/**
 * The boundary to wearable data providers: one adapter per provider answers "what does the provider hold
 * for this connection on this local day". Real providers would call their APIs here; the sandbox
 * providers (domain/wearables/sandbox.ts) generate the data.
 */
export interface SampleRecord {
  resource: string;
  timestamp: Date;
  end?: Date | null;
  value: number;
  unit: string;
  type?: string | null;
  sourceType: string;
  timezoneOffset: number;
}

export interface SummaryRecord {
  id: string;
  resource: string;
  calendarDate: string;
  sourceType: string;
  /** The client-facing fields other than id, user_id, source, created_at, updated_at. */
  data: Record<string, unknown>;
  stream?: Record<string, unknown> | null;
}

export interface DayData {
  samples: SampleRecord[];
  summaries: SummaryRecord[];
}

export interface DayRequest {
  connectionId: string;
  provider: string;
  /** Local calendar day, YYYY-MM-DD, in `timeZone`. */
  day: string;
  timeZone: string;
  /** What the provider knows stops here: the current day is incomplete and changes on the next pull. */
  now: Date;
}

export interface WearableAdapter {
  provider: string;
  /** How far back the provider lets a historical pull reach. */
  historyLimitDays: number;
  fetchDay(request: DayRequest): DayData;
}

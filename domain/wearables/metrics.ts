/**
 * Every timeseries metric the SDK reads (`vitals.*`): the path segment after /v2/timeseries/{user_id}/,
 * the stored resource (the `daily.data.<resource>` name), its unit, whether a sample is an interval
 * ([start, end)), the sub-type a path selects (cholesterol/hdl…), and whether the SDK has a plain
 * (non-grouped) read. The 78 routes are generated from this one table.
 */
export interface Metric {
  path: string;
  resource: string;
  unit: string;
  interval: boolean;
  plain: boolean;
  type?: string;
}

const m = (path: string, unit: string, opts: Partial<Omit<Metric, 'path' | 'unit'>> = {}): Metric => ({
  path,
  resource: opts.resource ?? path,
  unit,
  interval: opts.interval ?? false,
  plain: opts.plain ?? true,
  ...(opts.type ? { type: opts.type } : {}),
});
const groupedOnly = { plain: false };

export const METRICS: readonly Metric[] = [
  m('afib_burden', 'percent', groupedOnly),
  m('basal_body_temperature', '°C', groupedOnly),
  m('blood_oxygen', 'percent'),
  m('blood_pressure', 'mmHg'),
  m('body_fat', 'percent', { resource: 'fat' }),
  m('body_mass_index', 'index', groupedOnly),
  m('body_temperature', '°C', { ...groupedOnly, interval: true }),
  m('body_temperature_delta', '°C', { ...groupedOnly, interval: true }),
  m('body_weight', 'kg', { resource: 'weight' }),
  m('caffeine', 'g', { interval: true }),
  m('calories_active', 'kcal', { interval: true }),
  m('calories_basal', 'kcal', { interval: true }),
  m('carbohydrates', 'g', { ...groupedOnly, interval: true }),
  m('cholesterol', 'mmol/L'),
  m('cholesterol/hdl', 'mmol/L', { resource: 'cholesterol', type: 'hdl' }),
  m('cholesterol/ldl', 'mmol/L', { resource: 'cholesterol', type: 'ldl' }),
  m('cholesterol/total', 'mmol/L', { resource: 'cholesterol', type: 'total' }),
  m('cholesterol/triglycerides', 'mmol/L', { resource: 'cholesterol', type: 'triglycerides' }),
  m('daylight_exposure', 'min', { ...groupedOnly, interval: true }),
  m('distance', 'm', { interval: true }),
  m('electrocardiogram_voltage', 'mV'),
  m('fall', 'count', groupedOnly),
  m('floors_climbed', 'count', { interval: true }),
  m('forced_expiratory_volume_1', 'L', groupedOnly),
  m('forced_vital_capacity', 'L', groupedOnly),
  m('glucose', 'mmol/L'),
  m('handwashing', 'min', { ...groupedOnly, interval: true }),
  m('heart_rate_alert', 'bpm', { ...groupedOnly, interval: true }),
  m('heart_rate_recovery_one_minute', 'bpm', groupedOnly),
  m('heartrate', 'bpm'),
  m('hrv', 'rmssd'),
  m('hypnogram', 'stage', { interval: true }),
  m('ige', 'FSU'),
  m('igg', 'FSU'),
  m('inhaler_usage', 'count', { ...groupedOnly, interval: true }),
  m('insulin_injection', 'unit', groupedOnly),
  m('lean_body_mass', 'kg', groupedOnly),
  m('mindfulness_minutes', 'min', { interval: true }),
  m('note', 'text', groupedOnly),
  m('peak_expiratory_flow_rate', 'L/min', groupedOnly),
  m('respiratory_rate', 'bpm'),
  m('sleep_apnea_alert', 'count', { ...groupedOnly, interval: true }),
  m('sleep_breathing_disturbance', 'count', { ...groupedOnly, interval: true }),
  m('stand_duration', 'min', { ...groupedOnly, interval: true }),
  m('stand_hour', 'count', { ...groupedOnly, interval: true }),
  m('steps', 'count', { interval: true }),
  m('stress_level', 'percent'),
  m('uv_exposure', 'index', { ...groupedOnly, interval: true }),
  m('vo2_max', 'mL/kg/min'),
  m('waist_circumference', 'cm', groupedOnly),
  m('water', 'mL', { interval: true }),
  m('wheelchair_push', 'count', { ...groupedOnly, interval: true }),
  m('workout_distance', 'm', { ...groupedOnly, interval: true }),
  m('workout_duration', 'min', { ...groupedOnly, interval: true }),
  m('workout_swimming_stroke', 'count', { ...groupedOnly, interval: true }),
];

/** The number of SDK routes the table yields: a grouped read for each, a plain read where the SDK has one. */
export const routeCount = (): number => METRICS.length + METRICS.filter((x) => x.plain).length;

export const metricByResource = new Map(METRICS.filter((x) => !x.type).map((x) => [x.resource, x]));

/** Summary resources (`/v2/summary/<path>/{user_id}`), stored one row per `id`. */
export const SUMMARY_RESOURCES = [
  'activity',
  'sleep',
  'workouts',
  'body',
  'profile',
  'meal',
  'menstrual_cycle',
  'sleep_cycle',
  'electrocardiogram',
] as const;
export type SummaryResource = (typeof SUMMARY_RESOURCES)[number];

/** The response key of each summary list (`{activity: […]}`, `{sleep: […]}`…). */
export const SUMMARY_RESPONSE_KEY: Record<SummaryResource, string> = {
  activity: 'activity',
  sleep: 'sleep',
  workouts: 'workouts',
  body: 'body',
  profile: 'profile',
  meal: 'meals',
  menstrual_cycle: 'menstrual_cycle',
  sleep_cycle: 'sleep_cycle',
  electrocardiogram: 'electrocardiogram',
};

/** Source types (ClientFacingSource.type) the sandbox providers report. */
export const SOURCE_TYPES = ['watch', 'phone', 'ring', 'multiple_sources', 'fingerprick', 'cuff', 'manual_scan', 'automatic', 'unknown'] as const;

/**
 * Which providers link how (CONTRACT §2; slugs as in the SDK's enums). Pure data: used by the API, the
 * connection workflow and its activities.
 */
export const PASSWORD_PROVIDERS = [
  'whoop', 'renpho', 'peloton', 'zwift', 'eight_sleep', 'beurer_api', 'dexcom', 'hammerhead', 'my_fitness_pal', 'kardia',
  'abbott_libreview',
] as const;
export const OAUTH_PROVIDERS = [
  'oura', 'fitbit', 'garmin', 'strava', 'wahoo', 'ihealth', 'withings', 'google_fit', 'dexcom_v3', 'polar', 'cronometer',
  'omron', 'whoop_v2', 'my_fitness_pal_v2', 'ultrahuman', 'runkeeper',
] as const;
export const EMAIL_PROVIDERS = ['freestyle_libre'] as const;
export const MANUAL_PROVIDERS = [
  'beurer_ble', 'omron_ble', 'accuchek_ble', 'contour_ble', 'freestyle_libre_ble', 'onetouch_ble', 'apple_health_kit', 'manual',
  'health_connect',
] as const;
export const DEMO_PROVIDERS = ['apple_health_kit', 'fitbit', 'freestyle_libre', 'oura'] as const;
/** Every slug of the SDK's `Providers` enum. */
export const ALL_PROVIDERS = [
  ...OAUTH_PROVIDERS, ...PASSWORD_PROVIDERS, ...EMAIL_PROVIDERS, ...MANUAL_PROVIDERS, 'map_my_fitness',
].filter((p, i, all) => all.indexOf(p) === i);

export type PasswordProvider = (typeof PASSWORD_PROVIDERS)[number];
export type DemoProvider = (typeof DEMO_PROVIDERS)[number];
export type LinkMethod = 'password' | 'demo' | 'manual' | 'oauth' | 'email';
export type AuthType = 'oauth' | 'password' | 'email' | 'sdk';

export const REGIONS = [
  'us', 'eu', 'de', 'fr', 'ca', 'br', 'ar', 'cl', 'co', 'mx', 'gb', 'ie', 'au', 'nz', 'nl', 'at', 'be', 'bh', 'ch', 'cz', 'dk',
  'eg', 'es', 'fi', 'gr', 'hr', 'il', 'it', 'jo', 'kw', 'lb', 'lu', 'no', 'om', 'pl', 'pt', 'qa', 'sa', 'se', 'si', 'sk', 'tr',
  'za', 'in', 'sg', 'hk', 'kr', 'ph', 'tw',
] as const;

export function authTypeOf(slug: string): AuthType {
  if ((PASSWORD_PROVIDERS as readonly string[]).includes(slug)) return 'password';
  if ((EMAIL_PROVIDERS as readonly string[]).includes(slug)) return 'email';
  if ((MANUAL_PROVIDERS as readonly string[]).includes(slug)) return 'sdk';
  return 'oauth';
}

/** Resources each kind of source offers (resource_availability of a connection, supported_resources). */
const RESOURCES: Record<string, readonly string[]> = {
  freestyle_libre: ['glucose'],
  abbott_libreview: ['glucose'],
  dexcom: ['glucose'],
  dexcom_v3: ['glucose'],
  freestyle_libre_ble: ['glucose'],
  eight_sleep: ['sleep', 'heartrate', 'hrv', 'respiratory_rate'],
  renpho: ['body', 'weight', 'fat'],
  kardia: ['electrocardiogram'],
  my_fitness_pal: ['meal'],
  my_fitness_pal_v2: ['meal'],
  cronometer: ['meal'],
};
const DEFAULT_RESOURCES = ['activity', 'sleep', 'workouts', 'body', 'profile', 'heartrate', 'steps', 'calories_active'] as const;

export function resourcesOf(slug: string): readonly string[] {
  return RESOURCES[slug] ?? DEFAULT_RESOURCES;
}

export function resourceAvailability(slug: string): Record<string, { status: 'available' }> {
  return Object.fromEntries(resourcesOf(slug).map((r) => [r, { status: 'available' as const }]));
}

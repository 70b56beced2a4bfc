/** Display data of the data sources a user can be linked to (slugs as in the SDK's Providers enum). */
const NAMES: Record<string, string> = {
  oura: 'Oura', fitbit: 'Fitbit', garmin: 'Garmin', whoop: 'WHOOP', whoop_v2: 'WHOOP', strava: 'Strava',
  renpho: 'Renpho', peloton: 'Peloton', wahoo: 'Wahoo', zwift: 'Zwift', freestyle_libre: 'FreeStyle Libre',
  abbott_libreview: 'Abbott LibreView', freestyle_libre_ble: 'FreeStyle Libre BLE', eight_sleep: 'Eight Sleep',
  withings: 'Withings', apple_health_kit: 'Apple HealthKit', manual: 'Manual', ihealth: 'iHealth',
  google_fit: 'Google Fit', beurer_api: 'Beurer', beurer_ble: 'Beurer BLE', omron: 'Omron', omron_ble: 'Omron BLE',
  onetouch_ble: 'OneTouch BLE', accuchek_ble: 'Accu-Chek BLE', contour_ble: 'Contour BLE', dexcom: 'Dexcom',
  dexcom_v3: 'Dexcom', hammerhead: 'Hammerhead', my_fitness_pal: 'MyFitnessPal', my_fitness_pal_v2: 'MyFitnessPal',
  health_connect: 'Health Connect', polar: 'Polar', cronometer: 'Cronometer', kardia: 'Kardia',
  ultrahuman: 'Ultrahuman', map_my_fitness: 'MapMyFitness', runkeeper: 'Runkeeper',
};

export interface ProviderDisplay {
  name: string;
  slug: string;
  logo: string;
}

/** No logos are hosted yet, so `logo` is empty rather than a link to someone else's asset. */
export function providerDisplay(slug: string): ProviderDisplay {
  return { name: NAMES[slug] ?? slug, slug, logo: '' };
}

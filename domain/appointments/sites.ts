/**
 * Sandbox scheduling geography: patient service centres (Quest, with coordinates and time zones) and the
 * ZIP codes the sandbox knows (BEHAVIOUR §2: 85004 Getlabs only on West Lincoln Street, Phoenix; 54650
 * PhlebFinders). Realistic addresses; the sandbox books against these.
 */

export interface LngLat {
  lng: number;
  lat: number;
}

export interface PscSite {
  siteCode: string;
  name: string;
  firstLine: string;
  city: string;
  state: string;
  zipCode: string;
  phone: string;
  location: LngLat;
  timezone: string;
  /** Sonora Quest (Arizona) books asynchronously and only by the patient: no scheduling through us. */
  schedulingViaUs: boolean;
}

export const PSC_SITES: readonly PscSite[] = [
  { siteCode: 'QSNY01', name: 'Quest Diagnostics Midtown', firstLine: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10119', phone: '+12125550101', location: { lat: 40.7506, lng: -73.9935 }, timezone: 'America/New_York', schedulingViaUs: true },
  { siteCode: 'QSNY02', name: 'Quest Diagnostics Union Square', firstLine: '44 Union Sq E', city: 'New York', state: 'NY', zipCode: '10003', phone: '+12125550102', location: { lat: 40.7359, lng: -73.9891 }, timezone: 'America/New_York', schedulingViaUs: true },
  { siteCode: 'QSNJ01', name: 'Quest Diagnostics Hoboken', firstLine: '70 Hudson St', city: 'Hoboken', state: 'NJ', zipCode: '07030', phone: '+12015550103', location: { lat: 40.7377, lng: -74.0297 }, timezone: 'America/New_York', schedulingViaUs: true },
  { siteCode: 'QSCA01', name: 'Quest Diagnostics SoMa', firstLine: '500 3rd St', city: 'San Francisco', state: 'CA', zipCode: '94107', phone: '+14155550104', location: { lat: 37.7803, lng: -122.3955 }, timezone: 'America/Los_Angeles', schedulingViaUs: true },
  { siteCode: 'QSCA02', name: 'Quest Diagnostics Oakland', firstLine: '1999 Harrison St', city: 'Oakland', state: 'CA', zipCode: '94612', phone: '+15105550105', location: { lat: 37.8087, lng: -122.2633 }, timezone: 'America/Los_Angeles', schedulingViaUs: true },
  { siteCode: 'QSTX01', name: 'Quest Diagnostics Downtown Austin', firstLine: '1000 Congress Ave', city: 'Austin', state: 'TX', zipCode: '78701', phone: '+15125550106', location: { lat: 30.2722, lng: -97.7417 }, timezone: 'America/Chicago', schedulingViaUs: true },
  { siteCode: 'QSIL01', name: 'Quest Diagnostics Loop', firstLine: '55 E Monroe St', city: 'Chicago', state: 'IL', zipCode: '60603', phone: '+13125550107', location: { lat: 41.8807, lng: -87.6251 }, timezone: 'America/Chicago', schedulingViaUs: true },
  { siteCode: 'QSAZ01', name: 'Sonora Quest Laboratories Central Phoenix', firstLine: '1275 W Washington St', city: 'Phoenix', state: 'AZ', zipCode: '85007', phone: '+16025550108', location: { lat: 33.4478, lng: -112.0901 }, timezone: 'America/Phoenix', schedulingViaUs: false },
];

/** Centres of the ZIP codes the sandbox knows (for radius searches and phlebotomy coverage). */
export const ZIP_CENTRES: Readonly<Record<string, LngLat & { timezone: string }>> = {
  '10001': { lat: 40.7506, lng: -73.9972, timezone: 'America/New_York' },
  '10003': { lat: 40.7317, lng: -73.9891, timezone: 'America/New_York' },
  '07030': { lat: 40.7453, lng: -74.0279, timezone: 'America/New_York' },
  '94105': { lat: 37.7898, lng: -122.3942, timezone: 'America/Los_Angeles' },
  '94612': { lat: 37.8085, lng: -122.2708, timezone: 'America/Los_Angeles' },
  '78701': { lat: 30.2711, lng: -97.7437, timezone: 'America/Chicago' },
  '60603': { lat: 41.8800, lng: -87.6270, timezone: 'America/Chicago' },
  '85004': { lat: 33.4515, lng: -112.0686, timezone: 'America/Phoenix' },
  '54650': { lat: 43.9119, lng: -91.2248, timezone: 'America/Chicago' },
};

/** Great-circle distance in miles (haversine). */
export function distanceMiles(a: LngLat, b: LngLat): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.sqrt(h));
}

export const findSite = (siteCode: string): PscSite | undefined => PSC_SITES.find((s) => s.siteCode === siteCode);

/** Sites within `radius` miles of a known ZIP code, nearest first; null when the ZIP is unknown. */
export function sitesNear(zipCode: string, radius: number): { site: PscSite; distance: number }[] | null {
  const centre = ZIP_CENTRES[zipCode];
  if (!centre) return null;
  return PSC_SITES.map((site) => ({ site, distance: Math.round(distanceMiles(centre, site.location) * 10) / 10 }))
    .filter((s) => s.distance <= radius)
    .sort((a, b) => a.distance - b.distance);
}

/** Phlebotomy coverage in the sandbox (BEHAVIOUR §2). */
export const PHLEBOTOMY_ZIPS: Readonly<Record<string, { provider: 'getlabs' | 'phlebfinders'; street?: RegExp }>> = {
  '85004': { provider: 'getlabs', street: /west lincoln street|w\.? lincoln st/i },
  '54650': { provider: 'phlebfinders' },
};

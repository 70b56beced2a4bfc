import { v5 as uuidv5 } from 'uuid';
import type { DayData, DayRequest, SampleRecord, SummaryRecord, WearableAdapter } from './adapter.js';
import { ALL_PROVIDERS } from '../link/catalog.js';
import { addDays, localMidnight, offsetSeconds } from './time.js';

/**
 * Sandbox providers: realistic, deterministic data (seeded by connection id and day) for
 * apple_health_kit, fitbit, oura (heart rate by minute, steps and calories by hour, a night's sleep with
 * stages, workouts with streams, a daily activity summary) and freestyle_libre (glucose every 15 min).
 * The day that contains `now` is incomplete: samples stop at `now` and the running hour's bucket holds
 * only its elapsed share, so the next pull updates them (receivers must deduplicate, as with real ones).
 */
const NAMESPACE = '5b0d3c52-3f0e-4d55-9a2b-2a7f3f1c9e10';
export const summaryId = (connectionId: string, resource: string, key: string) => uuidv5(`${connectionId}:${resource}:${key}`, NAMESPACE);

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** mulberry32 over an FNV-1a hash of the seed text. */
function rng(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

interface Profile {
  sourceType: string;
  heartRate: boolean;
  activity: boolean;
  glucose: boolean;
}
const PROVIDERS: Record<string, Profile> = {
  apple_health_kit: { sourceType: 'watch', heartRate: true, activity: true, glucose: false },
  fitbit: { sourceType: 'watch', heartRate: true, activity: true, glucose: false },
  oura: { sourceType: 'ring', heartRate: true, activity: true, glucose: false },
  freestyle_libre: { sourceType: 'automatic', heartRate: false, activity: false, glucose: true },
};
/** Continuous glucose monitors: glucose only. */
const GLUCOSE_PROVIDERS = new Set(['freestyle_libre', 'freestyle_libre_ble', 'abbott_libreview', 'dexcom', 'dexcom_v3']);
/** Every other linkable provider (password, OAuth, e-mail) produces the generic wearable day in the sandbox. */
const GENERIC: Profile = { sourceType: 'app', heartRate: true, activity: true, glucose: false };
const GLUCOSE: Profile = { sourceType: 'automatic', heartRate: false, activity: false, glucose: true };

function profileOf(provider: string): Profile | null {
  if (PROVIDERS[provider]) return PROVIDERS[provider];
  if (!(ALL_PROVIDERS as readonly string[]).includes(provider)) return null;
  return GLUCOSE_PROVIDERS.has(provider) ? GLUCOSE : GENERIC;
}
export const SANDBOX_PROVIDERS = Object.keys(PROVIDERS);

/** A night that ends on the morning of `day` (local): bedtime 22:30–23:50 the evening before, 7–8.5 h. */
function night(req: DayRequest) {
  const r = rng(`${req.connectionId}:${req.day}:sleep`);
  const start = new Date(localMidnight(req.day, req.timeZone).getTime() - (70 + r() * 80) * MINUTE);
  const end = new Date(start.getTime() + (420 + r() * 90) * MINUTE);
  return { start, end, r };
}

/** An evening workout on about half of the days, 17:30–19:00 local, 30–60 min. */
function workoutWindow(req: DayRequest) {
  const r = rng(`${req.connectionId}:${req.day}:workout`);
  if (r() < 0.5) return null;
  const start = new Date(localMidnight(req.day, req.timeZone).getTime() + (17.5 * 60 + r() * 90) * MINUTE);
  return { start, end: new Date(start.getTime() + (30 + Math.floor(r() * 31)) * MINUTE), r };
}

function generate(req: DayRequest, p: Profile): DayData {
  const midnight = localMidnight(req.day, req.timeZone);
  const dayEnd = localMidnight(addDays(req.day, 1), req.timeZone);
  const until = Math.min(dayEnd.getTime(), req.now.getTime());
  if (until <= midnight.getTime()) return { samples: [], summaries: [] };
  const tzOffset = offsetSeconds(req.timeZone, midnight);
  const r = rng(`${req.connectionId}:${req.day}`);
  const samples: SampleRecord[] = [];
  const summaries: SummaryRecord[] = [];
  const sample = (resource: string, at: number, value: number, unit: string, end?: number) =>
    samples.push({ resource, timestamp: new Date(at), end: end ? new Date(end) : null, value, unit, sourceType: p.sourceType, timezoneOffset: tzOffset });

  if (p.glucose) {
    // Fasting ~5.2 mmol/L, a rise after each meal (8:00, 13:00, 19:30), slow drift, sensor noise.
    const meals = [8, 13, 19.5].map((h) => midnight.getTime() + (h + r() * 0.5) * HOUR);
    for (let t = midnight.getTime(); t < until; t += 15 * MINUTE) {
      const rise = meals.reduce((acc, m) => (t >= m ? acc + 3.2 * Math.exp(-(t - m) / (50 * MINUTE)) * Math.min(1, (t - m) / (30 * MINUTE)) : acc), 0);
      sample('glucose', t, round(5.1 + rise + (r() - 0.5) * 0.3, 1), 'mmol/L');
    }
    return { samples, summaries };
  }

  const sleep = night(req);
  const workout = workoutWindow(req);
  const isAsleep = (t: number) => t >= sleep.start.getTime() && t < sleep.end.getTime();
  const nextNightStart = night({ ...req, day: addDays(req.day, 1) }).start.getTime();
  const heartRates: number[] = [];
  for (let t = midnight.getTime(); t < until; t += MINUTE) {
    const hour = (t - midnight.getTime()) / HOUR;
    let bpm = isAsleep(t) || t >= nextNightStart ? 54 : 66 + 8 * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    if (workout && t >= workout.start.getTime() && t < workout.end.getTime()) bpm = 135 + 15 * Math.sin((t - workout.start.getTime()) / (6 * MINUTE));
    const value = Math.round(bpm + (r() - 0.5) * 8);
    heartRates.push(value);
    sample('heartrate', t, value, 'bpm');
  }

  let steps = 0;
  let active = 0;
  for (let h = 0; h < 24; h++) {
    const start = midnight.getTime() + h * HOUR;
    if (start >= until) break;
    // The running hour holds only its elapsed share: the next pull updates this bucket.
    const share = Math.min(1, (until - start) / HOUR);
    const awake = h >= 7 && h < 23;
    const base = awake ? 250 + 600 * Math.exp(-(((h - 12.5) / 4) ** 2)) : 5;
    const inWorkout = workout && workout.start.getTime() < start + HOUR && workout.end.getTime() > start;
    const hourSteps = Math.round((base + (inWorkout ? 3500 : 0)) * (0.6 + r() * 0.8) * share);
    const kcal = round((hourSteps * 0.045 + (inWorkout ? 180 * share : 0)) * (0.9 + r() * 0.2), 1);
    steps += hourSteps;
    active += kcal;
    sample('steps', start, hourSteps, 'count', start + HOUR);
    sample('calories_active', start, kcal, 'kcal', start + HOUR);
  }

  const basal = round(1650 * ((until - midnight.getTime()) / (dayEnd.getTime() - midnight.getTime())), 1);
  const sorted = [...heartRates].sort((a, b) => a - b);
  summaries.push({
    id: summaryId(req.connectionId, 'activity', req.day),
    resource: 'activity',
    calendarDate: req.day,
    sourceType: p.sourceType,
    data: {
      date: midnight.toISOString(),
      calendar_date: req.day,
      calories_total: round(basal + active, 1),
      calories_active: round(active, 1),
      steps,
      daily_movement: Math.round(steps * 0.75),
      distance: Math.round(steps * 0.75),
      low: round(steps / 200, 1),
      medium: round(steps / 500, 1),
      high: workout ? round((workout.end.getTime() - workout.start.getTime()) / MINUTE, 1) : 0,
      floors_climbed: Math.round(steps / 900),
      time_zone: req.timeZone,
      timezone_offset: tzOffset,
      heart_rate: {
        avg_bpm: round(heartRates.reduce((a, b) => a + b, 0) / Math.max(1, heartRates.length), 1),
        min_bpm: sorted[0] ?? null,
        max_bpm: sorted[sorted.length - 1] ?? null,
        resting_bpm: sorted[Math.floor(sorted.length * 0.05)] ?? null,
      },
    },
  });

  if (sleep.end.getTime() <= req.now.getTime()) summaries.push(sleepSummary(req, p, sleep, tzOffset));
  if (workout && workout.end.getTime() <= req.now.getTime()) summaries.push(workoutSummary(req, p, workout, tzOffset));
  summaries.push({
    id: summaryId(req.connectionId, 'profile', 'profile'),
    resource: 'profile',
    calendarDate: req.day,
    sourceType: p.sourceType,
    data: { height: 172, birth_date: null, wheelchair_use: false, gender: null, sex: null },
  });
  return { samples, summaries };
}

function sleepSummary(req: DayRequest, p: Profile, s: ReturnType<typeof night>, tzOffset: number): SummaryRecord {
  // 5-minute hypnogram: cycles of light → deep → light → REM, deep early and REM late; brief wakes.
  const hypnogram: { timestamp: string; start: string; end: string; value: number; unit: string; timezone_offset: number; type: null }[] = [];
  const heartrate: { timestamp: string; value: number; unit: string; timezone_offset: number; type: null }[] = [];
  const hrv: typeof heartrate = [];
  const respiratory: typeof heartrate = [];
  const totals = { awake: 0, light: 0, deep: 0, rem: 0 };
  const span = s.end.getTime() - s.start.getTime();
  for (let t = s.start.getTime(); t < s.end.getTime(); t += 5 * MINUTE) {
    const f = (t - s.start.getTime()) / span;
    const phase = ((t - s.start.getTime()) / (90 * MINUTE)) % 1;
    const x = s.r();
    const stage = x < 0.05 ? 'awake' : phase < 0.35 ? 'light' : phase < 0.6 && f < 0.6 ? 'deep' : phase < 0.75 ? 'light' : f > 0.25 ? 'rem' : 'light';
    totals[stage] += 300;
    const iso = new Date(t).toISOString();
    const value = { deep: 1, light: 2, rem: 3, awake: 4 }[stage];
    hypnogram.push({ timestamp: iso, start: iso, end: new Date(t + 5 * MINUTE).toISOString(), value, unit: 'stage', timezone_offset: tzOffset, type: null });
    heartrate.push({ timestamp: iso, value: Math.round(52 + s.r() * 6 + (stage === 'rem' ? 4 : 0)), unit: 'bpm', timezone_offset: tzOffset, type: null });
    hrv.push({ timestamp: iso, value: Math.round(45 + s.r() * 25), unit: 'rmssd', timezone_offset: tzOffset, type: null });
    respiratory.push({ timestamp: iso, value: round(13 + s.r() * 3, 1), unit: 'bpm', timezone_offset: tzOffset, type: null });
  }
  const total = totals.light + totals.deep + totals.rem;
  return {
    id: summaryId(req.connectionId, 'sleep', req.day),
    resource: 'sleep',
    calendarDate: req.day,
    sourceType: p.sourceType,
    data: {
      date: s.start.toISOString(),
      calendar_date: req.day,
      bedtime_start: s.start.toISOString(),
      bedtime_stop: s.end.toISOString(),
      type: 'long_sleep',
      timezone_offset: tzOffset,
      duration: span / 1000,
      total,
      awake: totals.awake,
      light: totals.light,
      rem: totals.rem,
      deep: totals.deep,
      score: Math.round(60 + (total / (span / 1000)) * 35),
      hr_lowest: Math.min(...heartrate.map((h) => h.value)),
      hr_average: Math.round(heartrate.reduce((a, h) => a + h.value, 0) / Math.max(1, heartrate.length)),
      efficiency: round((total / (span / 1000)) * 100, 1),
      latency: 600,
      average_hrv: Math.round(hrv.reduce((a, h) => a + h.value, 0) / Math.max(1, hrv.length)),
      respiratory_rate: round(respiratory.reduce((a, h) => a + h.value, 0) / Math.max(1, respiratory.length), 1),
    },
    stream: { hypnogram, heartrate, hrv, respiratory_rate: respiratory },
  };
}

const RUNNING = { id: 3, name: 'Running', slug: 'running' };

function workoutSummary(req: DayRequest, p: Profile, w: NonNullable<ReturnType<typeof workoutWindow>>, tzOffset: number): SummaryRecord {
  const time: number[] = [];
  const heartrate: number[] = [];
  const velocity: number[] = [];
  const distance: number[] = [];
  const lat: number[] = [];
  const lng: number[] = [];
  let d = 0;
  for (let t = w.start.getTime(); t < w.end.getTime(); t += 10_000) {
    const v = round(2.6 + 0.4 * Math.sin(t / 120_000) + (w.r() - 0.5) * 0.3, 2);
    d += v * 10;
    time.push(Math.floor(t / 1000));
    heartrate.push(Math.round(130 + 20 * Math.min(1, (t - w.start.getTime()) / (10 * MINUTE)) + (w.r() - 0.5) * 6));
    velocity.push(v);
    distance.push(round(d, 1));
    lat.push(round(51.5 + d / 111_000, 6));
    lng.push(round(-0.12 + Math.sin(d / 800) * 0.004, 6));
  }
  const seconds = (w.end.getTime() - w.start.getTime()) / 1000;
  return {
    id: summaryId(req.connectionId, 'workouts', req.day),
    resource: 'workouts',
    calendarDate: req.day,
    sourceType: p.sourceType,
    data: {
      calendar_date: req.day,
      title: 'Evening run',
      timezone_offset: tzOffset,
      time_start: w.start.toISOString(),
      time_end: w.end.toISOString(),
      provider_id: `sandbox-${req.day}`,
      sport: RUNNING,
      average_hr: Math.round(heartrate.reduce((a, b) => a + b, 0) / Math.max(1, heartrate.length)),
      max_hr: Math.max(...heartrate),
      distance: round(d, 1),
      calories: Math.round(d * 0.065),
      moving_time: seconds,
      average_speed: round(d / seconds, 2),
    },
    stream: { time, heartrate, velocity_smooth: velocity, distance, lat, lng },
  };
}

/**
 * How far back a sandbox connection's backfill reaches: 30 days, as a demo connection. (A year of minute
 * data per sandbox connection made every test run and sandbox deployment backfill ~500k samples per link.)
 */
export const SANDBOX_HISTORY_DAYS = 30;

/** Sandbox data for any provider a connection can link (null for an unknown slug). */
export function sandboxAdapter(provider: string): WearableAdapter | null {
  const profile = profileOf(provider);
  if (!profile) return null;
  return { provider, historyLimitDays: SANDBOX_HISTORY_DAYS, fetchDay: (req) => generate(req, profile) };
}

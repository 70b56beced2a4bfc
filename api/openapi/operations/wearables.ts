/**
 * Wearable data: every timeseries metric (plain and grouped, from domain/wearables/metrics.ts), every
 * summary resource (and its raw rows), streams, introspection and the aggregation query language.
 */
import { z } from 'zod';
import { METRICS, SUMMARY_RESOURCES, SUMMARY_RESPONSE_KEY } from '../../../domain/wearables/metrics.js';
import { groupedQuery, rangeQuery, userIdParam } from '../../routes/vitals/query.js';
import { introspectQuery, providerOnly, streamId } from '../../routes/summaries/index.js';
import { batchBody, historyQuery, queryIdOrSlug } from '../../routes/aggregate/index.js';
import * as res from '../responses/wearables.js';
import { errorDetail, json, named, type Operation } from '../spec.js';

/** Summary resources with a `/raw` read (api/routes/summaries). */
const RAW = new Set(['activity', 'sleep', 'workouts', 'body', 'profile']);
const user = { user_id: userIdParam };
const samples = json(named('TimeseriesSamples', z.array(res.sample)));
const grouped = json(named('GroupedTimeseries', res.groupedSamples));
const summary = named('Summary', res.summary);

function timeseries(): Operation[] {
  return METRICS.flatMap((m): Operation[] => [
    { method: 'GET', path: `/v2/timeseries/{user_id}/${m.path}/grouped`, tag: 'Timeseries', summary: `${m.path} (${m.unit}), grouped by source`, auth: 'team', params: user, query: groupedQuery, responses: { 200: grouped } },
    ...(m.plain
      ? [{ method: 'GET', path: `/v2/timeseries/{user_id}/${m.path}`, tag: 'Timeseries', summary: `${m.path} (${m.unit})`, auth: 'team', params: user, query: rangeQuery, responses: { 200: samples } } satisfies Operation]
      : []),
  ]);
}

function summaries(): Operation[] {
  return SUMMARY_RESOURCES.flatMap((r): Operation[] => {
    const profile = r === 'profile';
    const query = profile ? providerOnly : rangeQuery;
    return [
      {
        method: 'GET', path: `/v2/summary/${r}/{user_id}`, tag: 'Summaries', summary: profile ? 'The latest profile' : `${r} summaries in a date range`, auth: 'team', params: user, query,
        responses: { 200: json(profile ? summary : z.object({ [SUMMARY_RESPONSE_KEY[r]]: z.array(res.summary) })) },
      },
      ...(RAW.has(r)
        ? [{
          method: 'GET', path: `/v2/summary/${r}/{user_id}/raw`, tag: 'Summaries', summary: `${r}, as the provider sent it`, auth: 'team', params: user, query,
          responses: { 200: json(z.object({ [r]: profile ? res.rawRow : z.array(res.rawRow) })) },
        } satisfies Operation]
        : []),
    ];
  });
}

export const wearableOperations: Operation[] = [
  ...timeseries(),
  ...summaries(),
  { method: 'GET', path: '/v2/summary/devices/{user_id}/raw', tag: 'Summaries', summary: 'The user’s devices as stored', auth: 'team', params: user, query: providerOnly, responses: { 200: json(res.rawDevices) } },
  { method: 'GET', path: '/v2/timeseries/workouts/{id}/stream', tag: 'Timeseries', summary: 'A workout’s stream', auth: 'team', params: { id: streamId }, responses: { 200: json(res.stream) } },
  { method: 'GET', path: '/v2/timeseries/sleep/{id}/stream', tag: 'Timeseries', summary: 'A sleep’s stream', auth: 'team', params: { id: streamId }, responses: { 200: json(res.stream) } },
  { method: 'GET', path: '/v2/introspect/resources', tag: 'Introspection', summary: 'What was pulled, per user and provider', auth: 'team', query: introspectQuery, responses: { 200: json(res.introspection) } },
  { method: 'GET', path: '/v2/introspect/historical_pull', tag: 'Introspection', summary: 'Historical pulls, per user and provider', auth: 'team', query: introspectQuery, responses: { 200: json(res.introspection) } },
  {
    method: 'POST', path: '/aggregate/v1/user/{user_id}/query', tag: 'Aggregation', summary: 'Run aggregation queries over the user’s summaries', auth: 'team', params: user, body: { json: batchBody },
    responses: { 200: json(res.aggregateResults) },
  },
  ...(['result_table', 'task_history'] as const).map((what): Operation => ({
    method: 'GET', path: `/aggregate/v1/user/{user_id}/continuous_query/{query_id_or_slug}/${what}`, tag: 'Aggregation',
    summary: `A continuous query’s ${what.replace('_', ' ')} (none exist here: always 404)`, auth: 'team', params: { user_id: userIdParam, query_id_or_slug: queryIdOrSlug },
    ...(what === 'task_history' ? { query: historyQuery } : {}), responses: { 404: json(errorDetail, 'Not found: there are no continuous queries.') },
  })),
];

/**
 * Every route of the README's endpoint table, its schema described once for the fuzz suite
 * (test/integration/fuzz.test.ts): path parameters, query keys and body fields by kind, and a valid
 * base body that each generated request breaks in one place.
 */

export type Kind =
  | 'uuid' // a UUID
  | 'name' // a required one-line string
  | 'text' // an optional string (free text)
  | 'date' // YYYY-mm-dd
  | 'dob' // YYYY-mm-dd, not in the future
  | 'datetime' // ISO 8601 with a zone
  | 'int' // an integer (int4)
  | 'bool'
  | 'enum'
  | 'array' // a list
  | 'cursor' // an opaque cursor this service gave out
  | 'pathString'; // a string path parameter

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** With `{param}` placeholders. */
  path: string;
  params?: Record<string, Kind>;
  query?: Record<string, Kind>;
  /** Body fields by dotted path (`patient_details.dob`). */
  body?: Record<string, Kind>;
  auth: 'team' | 'partner' | 'none';
  multipart?: true;
}

/** Ids and values the base requests use: the fuzzing team's own records. */
export interface Fixture {
  userId: string;
  clientUserId: string;
  labTestId: string;
  labId: number;
  providerId: string;
  markerId: number;
  endpointId: string;
}

const shipping = {
  receiver_name: 'Jane Doe', first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phone_number: '+14155552671',
};
const patient = {
  patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
  patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
};
const shippingKinds = Object.fromEntries(
  ['receiver_name', 'first_line', 'city', 'state', 'zip', 'country', 'phone_number'].map((k) => [`shipping_details.${k}`, 'name' as Kind]),
);
const patientKinds: Record<string, Kind> = {
  'patient_details.first_name': 'name', 'patient_details.last_name': 'name', 'patient_details.dob': 'dob',
  'patient_details.gender': 'enum', 'patient_details.phone_number': 'name', 'patient_details.email': 'name',
  'patient_details.race': 'text', 'patient_details.ethnicity': 'text', 'patient_details.household_size': 'int',
  'patient_details.household_income': 'int', 'patient_address.first_line': 'name', 'patient_address.zip': 'name',
  'patient_address.country': 'name', 'patient_address.receiver_name': 'text', 'patient_address.access_notes': 'text',
};

const page = { page: 'int', size: 'int' } as const;
const labTestFilters: Record<string, Kind> = {
  generation_method: 'enum', lab_slug: 'name', collection_method: 'enum', status: 'enum', marker_ids: 'int',
  provider_ids: 'name', name: 'text', order_key: 'enum', order_direction: 'enum',
};

export const ROUTES: RouteSpec[] = [
  // users
  { method: 'POST', path: '/v2/user', auth: 'team', body: { client_user_id: 'name', fallback_time_zone: 'name', fallback_birth_date: 'dob', ingestion_start: 'date', ingestion_end: 'date' } },
  { method: 'GET', path: '/v2/user', auth: 'team', query: { offset: 'int', limit: 'int' } },
  { method: 'GET', path: '/v2/user/{user_id}', auth: 'team', params: { user_id: 'uuid' } },
  { method: 'GET', path: '/v2/user/resolve/{client_user_id}', auth: 'team', params: { client_user_id: 'pathString' } },
  { method: 'PATCH', path: '/v2/user/{user_id}', auth: 'team', params: { user_id: 'uuid' }, body: { client_user_id: 'name', fallback_time_zone: 'name', fallback_birth_date: 'dob', ingestion_start: 'date', ingestion_end: 'date' } },
  { method: 'DELETE', path: '/v2/user/{user_id}', auth: 'team', params: { user_id: 'uuid' } },
  { method: 'POST', path: '/v2/user/undo_delete', auth: 'team', query: { user_id: 'uuid', client_user_id: 'pathString' } },
  { method: 'GET', path: '/v2/user/providers/{user_id}', auth: 'team', params: { user_id: 'uuid' } },
  // orders
  { method: 'POST', path: '/v3/order/testkit', auth: 'team', body: { user_id: 'uuid', lab_test_id: 'uuid', passthrough: 'text', ...shippingKinds } },
  {
    method: 'POST', path: '/v3/order', auth: 'team',
    body: { user_id: 'uuid', 'order_set.lab_test_ids': 'array', collection_method: 'enum', activate_by: 'date', clinical_notes: 'text', priority: 'bool', icd_codes: 'array', ...patientKinds },
  },
  { method: 'POST', path: '/v3/order/testkit/register', auth: 'team', body: { sample_id: 'name', user_id: 'uuid', ...patientKinds } },
  { method: 'GET', path: '/v3/order/{order_id}', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/{order_id}/requisition/pdf', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/{order_id}/result', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/{order_id}/result/metadata', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/{order_id}/result/pdf', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/documents/orders/{order_id}/requisition.pdf', auth: 'none', params: { order_id: 'uuid' }, query: { expires: 'int', signature: 'name' } },
  {
    method: 'GET', path: '/v3/orders', auth: 'team',
    query: { search_input: 'text', start_date: 'datetime', end_date: 'datetime', updated_start_date: 'datetime', status: 'enum', order_key: 'enum', user_id: 'uuid', patient_name: 'text', order_ids: 'uuid', ...page },
  },
  { method: 'POST', path: '/v3/order/{order_id}/cancel', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'POST', path: '/v3/order/{order_id}/test', auth: 'team', params: { order_id: 'uuid' }, query: { final_status: 'name', delay: 'int' } },
  // partner API
  ...['shipment', 'sample_received', 'results', 'failure'].flatMap((what): RouteSpec[] => {
    const body: Record<string, Kind> =
      what === 'shipment' ? { event: 'enum', courier: 'text', tracking_url: 'text', notes: 'text' }
        : what === 'sample_received' ? { notes: 'text', status_detail: 'text' }
          : what === 'results' ? { final: 'bool', interpretation: 'enum', results: 'array', 'results.0.name': 'name', 'results.0.result': 'name', 'results.0.min_range_value': 'int' }
            : { kind: 'enum', status_detail: 'name' };
    return [
      { method: 'POST', path: `/partner/v1/orders/{order_id}/${what}`, auth: 'partner', params: { order_id: 'uuid' }, body },
      { method: 'POST', path: `/partner/v1/samples/{sample_id}/${what}`, auth: 'partner', params: { sample_id: 'pathString' }, body },
    ];
  }),
  // webhooks
  { method: 'POST', path: '/v2/webhooks/endpoints', auth: 'team', body: { url: 'name', event_types: 'array', description: 'text' } },
  { method: 'GET', path: '/v2/webhooks/endpoints', auth: 'team' },
  { method: 'GET', path: '/v2/webhooks/endpoints/{id}', auth: 'team', params: { id: 'uuid' } },
  { method: 'PATCH', path: '/v2/webhooks/endpoints/{id}', auth: 'team', params: { id: 'uuid' }, body: { url: 'name', event_types: 'array', description: 'text', enabled: 'bool' } },
  { method: 'DELETE', path: '/v2/webhooks/endpoints/{id}', auth: 'team', params: { id: 'uuid' } },
  { method: 'GET', path: '/v2/webhooks/endpoints/{id}/secret', auth: 'team', params: { id: 'uuid' } },
  { method: 'POST', path: '/v2/webhooks/endpoints/{id}/rotate_secret', auth: 'team', params: { id: 'uuid' } },
  { method: 'POST', path: '/v2/webhooks/endpoints/{id}/recover', auth: 'team', params: { id: 'uuid' }, body: { since: 'datetime' } },
  {
    method: 'GET', path: '/v2/webhooks/events', auth: 'team',
    query: { event_type: 'name', since: 'datetime', until: 'datetime', order_id: 'uuid', user_id: 'uuid', delivery_status: 'enum', limit: 'int', cursor: 'cursor' },
  },
  { method: 'GET', path: '/v2/webhooks/events/{id}', auth: 'team', params: { id: 'uuid' } },
  { method: 'POST', path: '/v2/webhooks/events/{id}/resend', auth: 'team', params: { id: 'uuid' }, body: { endpoint_id: 'uuid' } },
  { method: 'POST', path: '/v3/order/resend_events', auth: 'team', body: { order_ids: 'array', start_at: 'datetime', end_at: 'datetime' } },
  { method: 'GET', path: '/v2/team/svix/url', auth: 'team' },
  // lab reports
  { method: 'POST', path: '/lab_report/v1/parser/job', auth: 'team', multipart: true },
  { method: 'GET', path: '/lab_report/v1/parser/job/{job_id}', auth: 'team', params: { job_id: 'uuid' } },
  { method: 'POST', path: '/lab_report/v1/parser/job/{job_id}/review', auth: 'team', params: { job_id: 'uuid' }, body: { approve: 'bool', results: 'array', 'results.0.test_name': 'name', 'results.0.page': 'int', 'metadata.dob': 'text' } },
  // lab tests
  { method: 'GET', path: '/v3/lab_tests/labs', auth: 'team' },
  { method: 'GET', path: '/v3/lab_test', auth: 'team', query: { ...labTestFilters, lab_test_limit: 'int', next_cursor: 'cursor' } },
  { method: 'GET', path: '/v3/lab_tests', auth: 'team', query: labTestFilters },
  { method: 'GET', path: '/v3/lab_tests/{lab_test_id}', auth: 'team', params: { lab_test_id: 'uuid' }, query: { lab_account_id: 'uuid' } },
  { method: 'POST', path: '/v3/lab_tests', auth: 'team', body: { marker_ids: 'array', provider_ids: 'array', name: 'name', method: 'enum', description: 'text', fasting: 'bool', lab_id: 'int' } },
  { method: 'PATCH', path: '/v3/lab_tests/{lab_test_id}', auth: 'team', params: { lab_test_id: 'uuid' }, body: { name: 'name', active: 'bool', description: 'text', status: 'enum' } },
  { method: 'GET', path: '/v3/lab_tests/markers', auth: 'team', query: { lab_id: 'int', lab_slug: 'name', name: 'text', a_la_carte_enabled: 'bool', lab_account_id: 'uuid', ...page } },
  { method: 'GET', path: '/v3/lab_tests/{lab_test_id}/markers', auth: 'team', params: { lab_test_id: 'uuid' }, query: { lab_account_id: 'uuid', ...page } },
  { method: 'GET', path: '/v3/lab_tests/{lab_id}/markers/{provider_id}', auth: 'team', params: { lab_id: 'int', provider_id: 'pathString' } },
  { method: 'POST', path: '/v3/lab_tests/list_order_set_markers', auth: 'team', body: { lab_test_ids: 'array', 'add_on.marker_ids': 'array', lab_account_id: 'uuid' }, query: page },
];

/** Valid path parameters and bodies of the fuzzing team: each request breaks them in one place. */
export function baseRequest(route: RouteSpec, f: Fixture): { params: Record<string, string>; body: unknown } {
  const params: Record<string, string> = {
    user_id: f.userId, client_user_id: f.clientUserId, order_id: crypto.randomUUID(), sample_id: 'FUZZ-0001', id: f.endpointId,
    job_id: crypto.randomUUID(), lab_test_id: f.labTestId, lab_id: String(f.labId), provider_id: f.providerId,
  };
  const p = route.path;
  if (!route.body) return { params, body: undefined };
  const body: unknown =
    p === '/v2/user' ? { client_user_id: `fuzz-${crypto.randomUUID()}` }
      : p === '/v2/user/{user_id}' ? { fallback_time_zone: 'Europe/Berlin' }
        : p === '/v3/order/testkit' ? { user_id: f.userId, lab_test_id: f.labTestId, shipping_details: shipping }
          : p === '/v3/order' ? { user_id: f.userId, order_set: { lab_test_ids: [f.labTestId] }, collection_method: 'testkit', ...patient }
            : p === '/v3/order/testkit/register' ? { sample_id: 'FUZZ-0001', ...patient }
              : p.endsWith('/shipment') ? { event: 'transit_customer' }
                : p.endsWith('/sample_received') ? { notes: 'ok' }
                  : p.endsWith('/results') ? { final: true, interpretation: 'normal', results: [{ name: 'HbA1c', result: '5.1', type: 'numeric' }] }
                    : p.endsWith('/failure') ? { kind: 'lost', status_detail: 'gone' }
                      : p === '/v2/webhooks/endpoints' ? { url: 'http://127.0.0.1:9/hook', event_types: [], description: 'fuzz' }
                        : p === '/v2/webhooks/endpoints/{id}' ? { description: 'fuzz' }
                          : p.endsWith('/recover') ? { since: new Date(Date.now() - 3_600_000).toISOString() }
                            : p.endsWith('/resend') ? { endpoint_id: f.endpointId }
                              : p === '/v3/order/resend_events' ? { order_ids: [crypto.randomUUID()] }
                                : p.endsWith('/review') ? { approve: true }
                                  : p === '/v3/lab_tests' ? { marker_ids: [f.markerId], name: 'Fuzz test', method: 'testkit', description: 'd' }
                                    : p === '/v3/lab_tests/{lab_test_id}' ? { name: 'Fuzz name' }
                                      : p === '/v3/lab_tests/list_order_set_markers' ? { lab_test_ids: [f.labTestId] }
                                        : undefined;
  return { params, body };
}

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
  | 'when' // a date or a date-time, with or without a zone (wearable ranges, the dashboard's filters)
  | 'number' // a number, not only integers
  | 'base64' // standard base64 (the Temporal codec)
  | 'int' // an integer (int4)
  | 'bool'
  | 'enum'
  | 'array' // a list
  | 'cursor' // an opaque cursor this service gave out
  | 'pathString'; // a string path parameter

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** With `{param}` placeholders (the app's `:param`). */
  path: string;
  params?: Record<string, Kind>;
  query?: Record<string, Kind>;
  /** Body fields by dotted path (`patient_details.dob`). */
  body?: Record<string, Kind>;
  /**
   * team: `x-service-api-key`; partner: `x-partner-api-key`; link: `x-vital-link-token`; session: the
   * dashboard's operator session cookie and CSRF token; none: no credential.
   */
  auth: 'team' | 'partner' | 'link' | 'session' | 'none';
  multipart?: true;
  /** The body is an HTML form (`application/x-www-form-urlencoded`), not JSON. */
  form?: true;
  /** A route with no input it could refuse (a static page, /health): it may answer 2xx/3xx, never 5xx. */
  accepts?: true;
  /** Link password calls answer a bad link token with 200 and `state: "error"` (the SDK's ProviderLinkResponse). */
  stateErrors?: true;
  /** Fewer generated requests: one of many routes built from one schema (timeseries, summaries). */
  family?: string;
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
  teamId: string;
  /** An active link token of `userId`. */
  linkToken: string;
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
  'patient_details.household_income': 'number', 'patient_address.first_line': 'name', 'patient_address.zip': 'name',
  'patient_address.country': 'name', 'patient_address.receiver_name': 'text', 'patient_address.access_notes': 'text',
};

const page = { page: 'int', size: 'int' } as const;
const labTestFilters: Record<string, Kind> = {
  generation_method: 'enum', lab_slug: 'name', collection_method: 'enum', status: 'enum', marker_ids: 'int',
  provider_ids: 'name', name: 'text', order_key: 'enum', order_direction: 'enum',
};

function usAddressKinds(prefix: string): Record<string, Kind> {
  return { [`${prefix}first_line`]: 'name', [`${prefix}second_line`]: 'text', [`${prefix}city`]: 'name', [`${prefix}state`]: 'enum', [`${prefix}zip_code`]: 'name', [`${prefix}unit`]: 'text' };
}
const bookingKinds: Record<string, Kind> = {
  booking_key: 'name', appointment_notes: 'text', access_notes: 'text', async_confirmation: 'bool', sync_confirmation_timeout_millisecond: 'int',
  async_confirmation_timeout_millisecond: 'int',
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
  ...['/v3/order', '/v3/order/create'].map((path): RouteSpec => ({
    method: 'POST', path, auth: 'team',
    body: { user_id: 'uuid', 'order_set.lab_test_ids': 'array', collection_method: 'enum', activate_by: 'date', clinical_notes: 'text', priority: 'bool', icd_codes: 'array', lab_account_id: 'uuid', ...patientKinds },
  })),
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
  ...['shipment', 'sample_received', 'results', 'failure', 'appointment'].flatMap((what): RouteSpec[] => {
    const body: Record<string, Kind> =
      what === 'shipment' ? { event: 'enum', courier: 'text', tracking_url: 'text', notes: 'text' }
        : what === 'sample_received' ? { notes: 'text', status_detail: 'text' }
          : what === 'results' ? { final: 'bool', interpretation: 'enum', results: 'array', 'results.0.name': 'name', 'results.0.result': 'name', 'results.0.min_range_value': 'int' }
            : what === 'appointment' ? { status: 'enum', notes: 'text' }
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
  // orders: documents, draw, transactions, import
  { method: 'PATCH', path: '/v3/order/{order_id}/draw_completed', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/{order_id}/labels/pdf', auth: 'team', params: { order_id: 'uuid' }, query: { number_of_labels: 'int', collection_date: 'datetime' } },
  { method: 'GET', path: '/v3/order/{order_id}/abn_pdf', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/{order_id}/collection_instruction_pdf', auth: 'team', params: { order_id: 'uuid' } },
  { method: 'GET', path: '/v3/lab_test/{lab_test_id}/collection_instruction_pdf', auth: 'team', params: { lab_test_id: 'uuid' } },
  { method: 'GET', path: '/v3/order_transaction/{transaction_id}', auth: 'team', params: { transaction_id: 'uuid' } },
  {
    method: 'POST', path: '/v3/order/import', auth: 'team',
    body: { user_id: 'uuid', billing_type: 'enum', 'order_set.lab_test_ids': 'array', collection_method: 'enum', sample_id: 'name', lab_account_id: 'uuid', ...patientKinds },
  },
  // appointments (phlebotomy and PSC), PSC and area information
  { method: 'POST', path: '/v3/order/phlebotomy/appointment/availability', auth: 'team', query: { start_date: 'date' }, body: usAddressKinds('') },
  { method: 'GET', path: '/v3/order/phlebotomy/appointment/cancellation-reasons', auth: 'team' },
  { method: 'GET', path: '/v3/order/psc/appointment/cancellation-reasons', auth: 'team' },
  ...(['phlebotomy', 'psc'] as const).flatMap((kind): RouteSpec[] => [
    { method: 'POST', path: `/v3/order/{order_id}/${kind}/appointment/book`, auth: 'team', params: { order_id: 'uuid' }, body: bookingKinds },
    { method: 'PATCH', path: `/v3/order/{order_id}/${kind}/appointment/reschedule`, auth: 'team', params: { order_id: 'uuid' }, body: bookingKinds },
    {
      method: 'PATCH', path: `/v3/order/{order_id}/${kind}/appointment/cancel`, auth: 'team', params: { order_id: 'uuid' },
      body: kind === 'psc' ? { cancellationReasonId: 'name', note: 'text' } : { cancellation_reason_id: 'name', notes: 'text' },
    },
    { method: 'GET', path: `/v3/order/{order_id}/${kind}/appointment`, auth: 'team', params: { order_id: 'uuid' } },
  ]),
  {
    method: 'POST', path: '/v3/order/{order_id}/phlebotomy/appointment/request', auth: 'team', params: { order_id: 'uuid' },
    body: { ...usAddressKinds('address.'), provider: 'enum', appointment_notes: 'text', access_notes: 'text' },
  },
  {
    method: 'POST', path: '/v3/order/psc/appointment/availability', auth: 'team',
    query: { lab: 'enum', start_date: 'date', site_codes: 'text', zip_code: 'name', radius: 'enum', allow_stale: 'bool' },
  },
  { method: 'GET', path: '/v3/order/psc/info', auth: 'team', query: { zip_code: 'name', lab_id: 'int', radius: 'enum', capabilities: 'enum', lab_account_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/area/info', auth: 'team', query: { zip_code: 'name', radius: 'enum', lab: 'text', labs: 'text', lab_account_id: 'uuid' } },
  { method: 'GET', path: '/v3/order/{order_id}/psc/info', auth: 'team', params: { order_id: 'uuid' }, query: { radius: 'enum', capabilities: 'enum' } },
  // lab accounts, insurance, payors
  { method: 'GET', path: '/v3/lab_test/lab_account', auth: 'team', query: { lab_account_id: 'uuid', status: 'enum', lab_id: 'int' } },
  { method: 'GET', path: '/v3/insurance/search/payor', auth: 'team', query: { insurance_name: 'text', provider: 'enum', provider_payor_id: 'text' } },
  { method: 'POST', path: '/v3/insurance/search/payor', auth: 'team', body: { insurance_name: 'text', provider: 'enum', provider_id: 'text' } },
  { method: 'GET', path: '/v3/insurance/search/diagnosis', auth: 'team', query: { diagnosis_query: 'name' } },
  { method: 'POST', path: '/v3/insurance/validate_icd_codes', auth: 'team', body: { codes: 'array', 'codes.0': 'text' } },
  {
    method: 'POST', path: '/v3/payor', auth: 'team',
    body: { name: 'name', provider: 'enum', provider_payor_id: 'text', 'address.first_line': 'name', 'address.zip': 'name', 'address.state': 'name', 'address.country': 'name' },
  },
  {
    method: 'POST', path: '/v2/user/{user_id}/insurance', auth: 'team', params: { user_id: 'uuid' },
    body: {
      payor_code: 'name', member_id: 'name', group_id: 'text', relationship: 'enum', 'insured.first_name': 'name', 'insured.dob': 'dob',
      'insured.email': 'name', 'insured.gender': 'enum', 'insured.address.zip': 'name', 'guarantor.household_size': 'int', is_primary: 'bool',
    },
  },
  { method: 'GET', path: '/v2/user/{user_id}/insurance/latest', auth: 'team', params: { user_id: 'uuid' }, query: { is_primary: 'bool' } },
  // team
  { method: 'GET', path: '/v2/team/{team_id}', auth: 'team', params: { team_id: 'uuid' } },
  { method: 'GET', path: '/v2/team/{team_id}/physicians', auth: 'team', params: { team_id: 'uuid' } },
  { method: 'GET', path: '/v2/team/users/search', auth: 'team', query: { query_id: 'name' } },
  { method: 'GET', path: '/v2/team/source/priorities', auth: 'team', query: { data_type: 'enum' } },
  { method: 'PATCH', path: '/v2/team/source/priorities', auth: 'team' },
  { method: 'GET', path: '/v2/team/link/config', auth: 'link' },
  // link: team-key calls, link-token calls, the sandbox OAuth page
  {
    method: 'POST', path: '/v2/link/token', auth: 'team',
    body: { user_id: 'uuid', provider: 'enum', redirect_url: 'name', filter_on_providers: 'array', on_error: 'enum', on_close: 'enum' },
  },
  { method: 'POST', path: '/v2/link/token/isValid', auth: 'team', body: { token: 'text' } },
  { method: 'POST', path: '/v2/link/start', auth: 'team', body: { link_token: 'name', provider: 'enum' } },
  { method: 'POST', path: '/v2/link/code/create', auth: 'team', query: { user_id: 'uuid', expires_at: 'datetime' } },
  { method: 'POST', path: '/v2/link/connect/demo', auth: 'team', body: { user_id: 'uuid', provider: 'enum' } },
  { method: 'POST', path: '/v2/link/provider/manual/{provider}', auth: 'team', params: { provider: 'pathString' }, body: { user_id: 'uuid', provider_id: 'text' } },
  { method: 'POST', path: '/v2/link/provider/password/{provider}', auth: 'link', stateErrors: true, params: { provider: 'pathString' }, body: { username: 'name', password: 'name', region: 'enum' } },
  { method: 'POST', path: '/v2/link/provider/password/{provider}/complete_mfa', auth: 'link', stateErrors: true, params: { provider: 'pathString' }, body: { mfa_code: 'name' } },
  { method: 'POST', path: '/v2/link/auth', auth: 'link', stateErrors: true, body: { username: 'name', password: 'name', provider: 'enum', auth_type: 'enum', region: 'enum' } },
  { method: 'POST', path: '/v2/link/provider/email/{provider}', auth: 'link', stateErrors: true, params: { provider: 'pathString' }, body: { email: 'name', provider: 'enum', region: 'enum' } },
  { method: 'POST', path: '/v2/link/auth/email', auth: 'link', stateErrors: true, body: { email: 'name', provider: 'enum', auth_type: 'enum', region: 'enum' } },
  // bulk link operations (team key; team_id is infer_from_context or the key's own team)
  { method: 'GET', path: '/v2/link/bulk_op', auth: 'team', query: { next_cursor: 'cursor', page_size: 'int', team_id: 'text' } },
  {
    method: 'POST', path: '/v2/link/bulk_import', auth: 'team', query: { team_id: 'text' },
    body: {
      provider: 'enum', connections: 'array', 'connections.0.user_id': 'uuid', 'connections.0.access_token': 'text', 'connections.0.refresh_token': 'text',
      'connections.0.provider_id': 'name', 'connections.0.expires_at': 'int', 'connections.0.oauth_scopes': 'array', wait_for_completion: 'bool',
    },
  },
  { method: 'POST', path: '/v2/link/bulk_trigger_historical_pull', auth: 'team', query: { team_id: 'text' }, body: { user_ids: 'array', 'user_ids.0': 'uuid', provider: 'enum', wait_for_completion: 'bool' } },
  { method: 'POST', path: '/v2/link/bulk_pause', auth: 'team', query: { team_id: 'text' }, body: { user_ids: 'array', 'user_ids.0': 'uuid', provider: 'enum' } },
  { method: 'POST', path: '/v2/link/bulk_export', auth: 'team', query: { team_id: 'text' }, body: { user_ids: 'array', 'user_ids.0': 'uuid', provider: 'enum', next_token: 'cursor' } },
  { method: 'GET', path: '/v2/link/state', auth: 'link' },
  { method: 'GET', path: '/v2/link/providers', auth: 'link' },
  { method: 'GET', path: '/v2/link/provider/oauth/{oauth_provider}', auth: 'link', params: { oauth_provider: 'pathString' } },
  { method: 'GET', path: '/link/oauth/sandbox/{provider}', auth: 'none', params: { provider: 'pathString' }, query: { state: 'name' } },
  { method: 'POST', path: '/link/oauth/sandbox/{provider}', auth: 'none', params: { provider: 'pathString' }, query: { state: 'name', decision: 'enum' } },
  // providers, users' connections, devices, info
  { method: 'GET', path: '/v2/providers', auth: 'team', query: { source_type: 'enum' } },
  { method: 'GET', path: '/v2/user/metrics', auth: 'team' },
  { method: 'POST', path: '/v2/user/refresh/{user_id}', auth: 'team', params: { user_id: 'uuid' }, query: { timeout: 'number' } },
  { method: 'GET', path: '/v2/user/{user_id}/device', auth: 'team', params: { user_id: 'uuid' } },
  { method: 'GET', path: '/v2/user/{user_id}/device/{device_id}', auth: 'team', params: { user_id: 'uuid', device_id: 'uuid' } },
  { method: 'DELETE', path: '/v2/user/{user_id}/{provider}', auth: 'team', params: { user_id: 'uuid', provider: 'pathString' } },
  {
    method: 'PATCH', path: '/v2/user/{user_id}/info', auth: 'team', params: { user_id: 'uuid' },
    body: {
      first_name: 'name', last_name: 'name', email: 'name', phone_number: 'name', gender: 'name', dob: 'dob', 'address.first_line': 'name',
      'address.zip': 'name', 'medical_proxy.first_name': 'name',
    },
  },
  { method: 'GET', path: '/v2/user/{user_id}/info/latest', auth: 'team', params: { user_id: 'uuid' } },
  // wearable streams and introspection (summaries and timeseries: `familySpec`)
  { method: 'GET', path: '/v2/timeseries/workouts/{id}/stream', auth: 'team', params: { id: 'uuid' } },
  { method: 'GET', path: '/v2/timeseries/sleep/{id}/stream', auth: 'team', params: { id: 'uuid' } },
  ...['resources', 'historical_pull'].map((what): RouteSpec => ({
    method: 'GET', path: `/v2/introspect/${what}`, auth: 'team', query: { user_id: 'uuid', provider: 'name', user_limit: 'int', cursor: 'cursor', next_cursor: 'cursor' },
  })),
  // the user portal (team key mints its links; the pages take only a signed link or a sign-in token)
  { method: 'POST', path: '/v2/user/{user_id}/sign_in_token', auth: 'team', params: { user_id: 'uuid' } },
  { method: 'POST', path: '/v2/user/{user_id}/create_portal_url', auth: 'team', params: { user_id: 'uuid' }, body: { context: 'enum', order_id: 'uuid' } },
  { method: 'GET', path: '/portal/users/{user_id}', auth: 'none', params: { user_id: 'uuid' }, query: { expires: 'int', signature: 'text' } },
  { method: 'GET', path: '/portal/users/{user_id}/orders/{order_id}', auth: 'none', params: { user_id: 'uuid', order_id: 'uuid' }, query: { expires: 'int', signature: 'text' } },
  { method: 'GET', path: '/portal/sign-in', auth: 'none', query: { token: 'text' } },
  { method: 'GET', path: '/v2/summary/devices/{user_id}/raw', auth: 'team', params: { user_id: 'uuid' }, query: { provider: 'enum' } },
  // aggregation (the query language over stored summaries; no continuous queries exist)
  {
    method: 'POST', path: '/aggregate/v1/user/{user_id}/query', auth: 'team', params: { user_id: 'uuid' },
    body: {
      'timeframe.type': 'enum', 'timeframe.anchor': 'when', 'timeframe.past.value': 'int', 'timeframe.past.unit': 'enum', queries: 'array',
      'queries.0.select': 'array', 'queries.0.select.1.func': 'enum', 'queries.0.select.1.arg.sleep': 'enum',
      'queries.0.group_by': 'array', 'queries.0.group_by.0.date_trunc.unit': 'enum', 'queries.0.group_by.0.date_trunc.value': 'int',
      'queries.0.group_by.0.arg.index': 'enum', 'queries.0.where': 'text', 'config.provider_priority_overrides': 'array',
    },
  },
  ...['result_table', 'task_history'].map((what): RouteSpec => ({
    method: 'GET', path: `/aggregate/v1/user/{user_id}/continuous_query/{query_id_or_slug}/${what}`, auth: 'team',
    params: { user_id: 'uuid', query_id_or_slug: 'pathString' }, ...(what === 'task_history' ? { query: { next_cursor: 'cursor', limit: 'int' } } : {}),
  })),
  // the operations dashboard
  { method: 'GET', path: '/health', auth: 'none', accepts: true },
  { method: 'GET', path: '/dashboard/static/htmx.min.js', auth: 'none', accepts: true },
  { method: 'GET', path: '/metrics', auth: 'none', accepts: true },
  // the API document and its reference page (api/openapi)
  ...['/openapi.json', '/docs', '/docs/init.js', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js'].map((path): RouteSpec => ({ method: 'GET', path, auth: 'none', accepts: true })),
  { method: 'GET', path: '/dashboard/login', auth: 'none', accepts: true, query: { next: 'text' } },
  { method: 'POST', path: '/dashboard/login', auth: 'none', form: true, body: { _csrf: 'name', email: 'name', password: 'name', next: 'text' } },
  { method: 'POST', path: '/dashboard/logout', auth: 'session', form: true, body: { _csrf: 'name' } },
  { method: 'POST', path: '/dashboard/codec/decode', auth: 'session', body: { payloads: 'array', 'payloads.0.data': 'base64', 'payloads.0.metadata.encoding': 'base64' } },
  { method: 'GET', path: '/dashboard', auth: 'session', accepts: true },
  {
    method: 'GET', path: '/dashboard/orders', auth: 'session',
    query: { q: 'text', team: 'uuid', status: 'enum', method: 'enum', from: 'date', to: 'date', before: 'cursor', limit: 'int' },
  },
  { method: 'GET', path: '/dashboard/orders/{id}', auth: 'session', params: { id: 'uuid' } },
  { method: 'GET', path: '/dashboard/orders/{id}/confirm/{action}', auth: 'session', params: { id: 'uuid', action: 'pathString' } },
  { method: 'POST', path: '/dashboard/orders/{id}/{action}', auth: 'session', form: true, params: { id: 'uuid', action: 'pathString' }, body: { event_id: 'uuid' } },
  { method: 'GET', path: '/dashboard/parsing', auth: 'session' },
  { method: 'GET', path: '/dashboard/parsing/{id}', auth: 'session', params: { id: 'uuid' } },
  { method: 'GET', path: '/dashboard/parsing/{id}/file/{n}', auth: 'session', params: { id: 'uuid', n: 'int' } },
  { method: 'GET', path: '/dashboard/parsing/{id}/pdf-page/{page}', auth: 'session', params: { id: 'uuid', page: 'int' } },
  { method: 'POST', path: '/dashboard/parsing/{id}/review', auth: 'session', form: true, params: { id: 'uuid' }, body: { decision: 'enum', value_0: 'text' } },
  { method: 'GET', path: '/dashboard/workflows', auth: 'session', query: { view: 'enum', type: 'enum', team: 'uuid', status: 'enum', method: 'enum', user: 'uuid' } },
  { method: 'GET', path: '/dashboard/overview', auth: 'session', query: { days: 'int', team: 'uuid' } },
  { method: 'GET', path: '/dashboard/teams', auth: 'session' },
  { method: 'POST', path: '/dashboard/teams', auth: 'session', form: true, body: { name: 'name' } },
  { method: 'GET', path: '/dashboard/teams/{id}/confirm-rotate', auth: 'session', params: { id: 'uuid' } },
  { method: 'POST', path: '/dashboard/teams/{id}/rotate-key', auth: 'session', form: true, params: { id: 'uuid' } },
  { method: 'POST', path: '/dashboard/partner-keys', auth: 'session', form: true, body: { name: 'name', kind: 'enum', lab_slug: 'text' } },
  { method: 'GET', path: '/dashboard/partner-keys/{id}/confirm-revoke', auth: 'session', params: { id: 'uuid' } },
  { method: 'POST', path: '/dashboard/partner-keys/{id}/revoke', auth: 'session', form: true, params: { id: 'uuid' } },
  {
    method: 'GET', path: '/dashboard/webhooks', auth: 'session',
    query: { team: 'uuid', endpoint: 'uuid', order: 'uuid', status: 'enum', event_type: 'name', since: 'when', until: 'when' },
  },
  { method: 'POST', path: '/dashboard/webhooks/endpoints/{id}/enable', auth: 'session', form: true, params: { id: 'uuid' } },
  { method: 'POST', path: '/dashboard/webhooks/endpoints/{id}/recover', auth: 'session', form: true, params: { id: 'uuid' }, body: { since: 'when' } },
  { method: 'POST', path: '/dashboard/webhooks/events/{id}/resend', auth: 'session', form: true, params: { id: 'uuid' } },
  { method: 'GET', path: '/dashboard/webhooks/replay', auth: 'session', query: { team: 'uuid', event_type: 'name', order: 'uuid', since: 'when', until: 'when' } },
  { method: 'POST', path: '/dashboard/webhooks/replay', auth: 'session', form: true, body: { team: 'uuid', event_type: 'name', order: 'uuid', since: 'when', until: 'when' } },
  { method: 'GET', path: '/dashboard/audit', auth: 'session' },
];

/**
 * Routes built from one schema each, many at a time (every `/v2/timeseries/{user_id}/<metric>[/grouped]`,
 * every `/v2/summary/<resource>/{user_id}[/raw]`): their spec follows from the path.
 */
export function familySpec(method: string, path: string): RouteSpec | undefined {
  if (method !== 'GET') return undefined;
  const range: Record<string, Kind> = { start_date: 'when', end_date: 'when', provider: 'name' };
  if (/^\/v2\/timeseries\/\{user_id\}\/[a-z0-9_/]+$/.test(path)) {
    const grouped = path.endsWith('/grouped');
    return {
      method, path, auth: 'team', family: grouped ? 'timeseries grouped' : 'timeseries', params: { user_id: 'uuid' },
      query: grouped ? { ...range, cursor: 'cursor', next_cursor: 'cursor' } : range,
    };
  }
  const summary = /^\/v2\/summary\/([a-z_]+)\/\{user_id\}(\/raw)?$/.exec(path);
  if (summary) {
    return { method, path, auth: 'team', family: 'summaries', params: { user_id: 'uuid' }, query: summary[1] === 'profile' ? { provider: 'name' } : range };
  }
  return undefined;
}

/** The spec of a served route (`:param` form), or undefined: then the fuzz fails, naming the route. */
export function specFor(method: string, honoPath: string): RouteSpec | undefined {
  const path = honoPath.replace(/:(\w+)/g, '{$1}');
  return ROUTES.find((r) => r.method === method && r.path === path) ?? familySpec(method, path);
}

const usAddress = { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip_code: '94105' };
const address = { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' };

/** Valid query values a route needs, each request then breaks one of them (or adds one bad key). */
function baseQuery(route: RouteSpec, f: Fixture): Record<string, string> {
  const p = route.path;
  if (route.family === 'timeseries' || route.family === 'timeseries grouped' || (route.family === 'summaries' && !p.includes('/profile/'))) {
    return { start_date: '2024-01-01', end_date: '2024-01-02T00:00:00Z' };
  }
  const byPath: Record<string, Record<string, string>> = {
    '/v3/order/psc/appointment/availability': { lab: 'quest', zip_code: '94105', radius: '25' },
    '/v3/order/psc/info': { zip_code: '94105', lab_id: String(f.labId) },
    '/v3/order/area/info': { zip_code: '94105' },
    '/v3/order/{order_id}/labels/pdf': { collection_date: '2024-01-01T08:00:00Z' },
    '/v3/insurance/search/diagnosis': { diagnosis_query: 'diab' },
    '/v2/link/code/create': { user_id: f.userId },
    '/link/oauth/sandbox/{provider}': { state: f.linkToken },
    '/dashboard/webhooks/replay': { team: f.teamId, since: '2024-01-01T00:00:00Z' },
  };
  const q = { ...byPath[p] };
  if (p === '/link/oauth/sandbox/{provider}' && route.method === 'POST') q.decision = 'deny';
  return q;
}

/** Valid path parameters, query and body of the fuzzing team: each request breaks them in one place. */
export function baseRequest(route: RouteSpec, f: Fixture): { params: Record<string, string>; query: Record<string, string>; body: unknown } {
  const params: Record<string, string> = {
    user_id: f.userId, client_user_id: f.clientUserId, order_id: crypto.randomUUID(), sample_id: 'FUZZ-0001', id: f.endpointId,
    job_id: crypto.randomUUID(), lab_test_id: f.labTestId, lab_id: String(f.labId), provider_id: f.providerId, transaction_id: crypto.randomUUID(),
    team_id: f.teamId, device_id: crypto.randomUUID(), provider: 'fitbit', oauth_provider: 'oura', action: 'cancel', n: '0', page: '1',
    query_id_or_slug: 'weekly-sleep',
  };
  const p = route.path;
  if (p.startsWith('/dashboard/')) params.id = crypto.randomUUID();
  if (p === '/v2/link/provider/manual/{provider}') params.provider = 'apple_health_kit';
  if (p.startsWith('/v2/link/provider/password/')) params.provider = 'whoop';
  if (p.startsWith('/v2/link/provider/email/')) params.provider = 'freestyle_libre';
  if (p.startsWith('/link/oauth/sandbox/')) params.provider = 'oura';
  const query = baseQuery(route, f);
  if (!route.body) return { params, query, body: undefined };
  const body: unknown =
    p === '/v2/user' ? { client_user_id: `fuzz-${crypto.randomUUID()}` }
      : p === '/v2/user/{user_id}' ? { fallback_time_zone: 'Europe/Berlin' }
        : p === '/v3/order/testkit' ? { user_id: f.userId, lab_test_id: f.labTestId, shipping_details: shipping }
          : p === '/v3/order' || p === '/v3/order/create' ? { user_id: f.userId, order_set: { lab_test_ids: [f.labTestId] }, collection_method: 'testkit', ...patient }
            : p === '/v3/order/import' ? { user_id: f.userId, billing_type: 'client_bill', order_set: { lab_test_ids: [f.labTestId] }, collection_method: 'testkit', sample_id: 'FUZZ-IMPORT-1', ...patient }
              : p === '/v3/order/testkit/register' ? { sample_id: 'FUZZ-0001', ...patient }
                : p.endsWith('/shipment') ? { event: 'transit_customer' }
                  : p.endsWith('/sample_received') ? { notes: 'ok' }
                    : p.endsWith('/results') ? { final: true, interpretation: 'normal', results: [{ name: 'HbA1c', result: '5.1', type: 'numeric' }] }
                      : p.endsWith('/failure') ? { kind: 'lost', status_detail: 'gone' }
                      : p.endsWith('/appointment') && p.startsWith('/partner') ? { status: 'in_progress' }
                        : p === '/v2/webhooks/endpoints' ? { url: 'http://127.0.0.1:9/hook', event_types: [], description: 'fuzz' }
                          : p === '/v2/webhooks/endpoints/{id}' ? { description: 'fuzz' }
                            : p === '/v2/webhooks/endpoints/{id}/recover' ? { since: new Date(Date.now() - 3_600_000).toISOString() }
                              : p === '/v2/webhooks/events/{id}/resend' ? { endpoint_id: f.endpointId }
                                : p === '/v3/order/resend_events' ? { order_ids: [crypto.randomUUID()] }
                                  : p.endsWith('/review') && !p.startsWith('/dashboard') ? { approve: true }
                                    : p === '/v3/lab_tests' ? { marker_ids: [f.markerId], name: 'Fuzz test', method: 'testkit', description: 'd' }
                                      : p === '/v3/lab_tests/{lab_test_id}' ? { name: 'Fuzz name' }
                                        : p === '/v3/lab_tests/list_order_set_markers' ? { lab_test_ids: [f.labTestId] }
                                          : p === '/v3/order/phlebotomy/appointment/availability' ? usAddress
                                            : p.endsWith('/appointment/book') || p.endsWith('/appointment/reschedule') ? { booking_key: 'fuzz-key' }
                                              : p.endsWith('/phlebotomy/appointment/cancel') ? { cancellation_reason_id: 'x' }
                                                : p.endsWith('/psc/appointment/cancel') ? { cancellationReasonId: 'x' }
                                                  : p.endsWith('/appointment/request') ? { address: usAddress, provider: 'getlabs' }
                                                    : p === '/v3/insurance/search/payor' ? { insurance_name: 'Aetna' }
                                                      : p === '/v3/insurance/validate_icd_codes' ? { codes: ['E11.9'] }
                                                        : p === '/v3/payor' ? { name: 'Fuzz payor', address }
                                                          : p === '/v2/user/{user_id}/insurance' ? insuranceBody
                                                            : p === '/v2/link/token' ? { user_id: f.userId }
                                                              : p === '/v2/link/token/isValid' ? { token: f.linkToken }
                                                                : p === '/v2/link/start' ? { link_token: f.linkToken, provider: 'oura' }
                                                                  : p === '/v2/link/connect/demo' ? { user_id: f.userId, provider: 'oura' }
                                                                    : p === '/v2/link/provider/manual/{provider}' ? { user_id: f.userId }
                                                                      : p === '/v2/link/provider/password/{provider}' ? { username: 'fuzz@example.com', password: 'pw' }
                                                                        : p.endsWith('/complete_mfa') ? { mfa_code: '123456' }
                                                                          : p === '/v2/link/auth' ? { username: 'u', password: 'p', provider: 'whoop', auth_type: 'password' }
                                                                          : p === '/v2/link/provider/email/{provider}' ? { email: 'fuzz@example.com' }
                                                                          : p === '/v2/link/auth/email' ? { email: 'fuzz@example.com', provider: 'freestyle_libre', auth_type: 'email' }
                                                                          : p === '/v2/link/bulk_import' ? { provider: 'fitbit', connections: [{ user_id: f.userId, access_token: 'a', refresh_token: 'r', provider_id: 'p', expires_at: 1 }] }
                                                                          : p === '/v2/link/bulk_trigger_historical_pull' || p === '/v2/link/bulk_pause' || p === '/v2/link/bulk_export' ? { provider: 'fitbit', user_ids: [f.userId] }
                                                                            : p === '/v2/user/{user_id}/info' ? userInfo
                                                                              : p === '/v2/user/{user_id}/create_portal_url' ? { context: 'launch' }
                                                                              : p === '/dashboard/codec/decode' ? { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg' }, data: 'e30' }] }
                                                                                : p === '/dashboard/login' ? { _csrf: 'x', email: 'nobody@example.com', password: 'wrong password' }
                                                                                  : p === '/dashboard/parsing/{id}/review' ? { decision: 'approve' }
                                                                                    : p === '/dashboard/orders/{id}/{action}' ? {}
                                                                                      : p === '/dashboard/webhooks/endpoints/{id}/recover' ? { since: '2024-01-01T00:00:00Z' }
                                                                                        : p === '/dashboard/webhooks/replay' ? { team: f.teamId, since: '2024-01-01T00:00:00Z' }
                                                                                          : p === '/aggregate/v1/user/{user_id}/query' ? aggregateBody
                                                                                          : route.form ? {}
                                                                                            : undefined;
  return { params, query, body };
}

/** Weekly mean sleep duration over January 2024: each fuzz request breaks it in one place. */
const aggregateBody = {
  timeframe: { type: 'relative', anchor: '2024-01-31', past: { value: 31, unit: 'day' } },
  queries: [{
    select: [{ group_key: 0 }, { arg: { sleep: 'duration_second' }, func: 'mean' }],
    group_by: [{ date_trunc: { value: 1, unit: 'week' }, arg: { index: 'sleep' } }],
    where: "duration_second > 0 and type = 'long_sleep'",
  }],
};
const insuranceBody = {
  payor_code: 'AETNA', member_id: 'M123', relationship: 'Self',
  insured: { first_name: 'Jane', last_name: 'Doe', gender: 'female', address, dob: '1990-05-17', email: 'jane@example.com', phone_number: '+14155552671' },
};
const userInfo = {
  first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', phone_number: '+14155552671', gender: 'female', dob: '1990-05-17', address,
};

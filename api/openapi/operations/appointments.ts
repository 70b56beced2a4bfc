/** At-home phlebotomy and patient service centre appointments; PSC and area information. */
import { orderIdParam } from '../../routes/orders/schemas.js';
import { bookingBody, phlebotomyCancelBody, pscAvailabilityQuery, pscCancelBody, requestBody, startDateQuery, usAddress } from '../../routes/appointments/schemas.js';
import { areaInfoQuery, orderPscInfoQuery, pscInfoQuery } from '../../routes/appointments/info.js';
import * as res from '../responses/appointments.js';
import { json, named, type Operation } from '../spec.js';

const appointment = json(named('ClientFacingAppointment', res.appointment));
const tag = 'Appointments';

function changes(kind: 'phlebotomy' | 'psc'): Operation[] {
  const base = `/v3/order/{order_id}/${kind}/appointment`;
  const who = kind === 'psc' ? 'a patient service centre' : 'an at-home draw';
  return [
    { method: 'POST', path: `${base}/book`, tag, summary: `Book ${who}`, auth: 'team', params: orderIdParam, body: { json: bookingBody }, responses: { 200: appointment } },
    { method: 'PATCH', path: `${base}/reschedule`, tag, summary: `Reschedule ${who}`, auth: 'team', params: orderIdParam, body: { json: bookingBody }, responses: { 200: appointment } },
    {
      method: 'PATCH', path: `${base}/cancel`, tag, summary: `Cancel ${who}`, auth: 'team', params: orderIdParam,
      body: { json: kind === 'psc' ? pscCancelBody : phlebotomyCancelBody }, responses: { 200: appointment },
    },
    { method: 'GET', path: base, tag, summary: `The order’s appointment (${kind})`, auth: 'team', params: orderIdParam, responses: { 200: appointment } },
  ];
}

export const appointmentOperations: Operation[] = [
  { method: 'POST', path: '/v3/order/phlebotomy/appointment/availability', tag, summary: 'At-home draw slots near an address', auth: 'team', query: startDateQuery, body: { json: usAddress }, responses: { 200: json(res.availability) } },
  { method: 'POST', path: '/v3/order/psc/appointment/availability', tag, summary: 'Patient service centre slots', auth: 'team', query: pscAvailabilityQuery, responses: { 200: json(res.availability) } },
  { method: 'GET', path: '/v3/order/phlebotomy/appointment/cancellation-reasons', tag, summary: 'Why an at-home draw may be cancelled', auth: 'team', responses: { 200: json(res.cancellationReasons) } },
  { method: 'GET', path: '/v3/order/psc/appointment/cancellation-reasons', tag, summary: 'Why a centre appointment may be cancelled', auth: 'team', responses: { 200: json(res.cancellationReasons) } },
  ...changes('phlebotomy'),
  ...changes('psc'),
  { method: 'POST', path: '/v3/order/{order_id}/phlebotomy/appointment/request', tag, summary: 'Request an at-home draw (the provider schedules it)', auth: 'team', params: orderIdParam, body: { json: requestBody }, responses: { 200: appointment } },
  { method: 'GET', path: '/v3/order/psc/info', tag, summary: 'Patient service centres near a ZIP code', auth: 'team', query: pscInfoQuery, responses: { 200: json(res.pscInfo) } },
  { method: 'GET', path: '/v3/order/{order_id}/psc/info', tag, summary: 'Patient service centres near the order’s patient', auth: 'team', params: orderIdParam, query: orderPscInfoQuery, responses: { 200: json(res.pscInfo) } },
  { method: 'GET', path: '/v3/order/area/info', tag, summary: 'What is offered at a ZIP code', auth: 'team', query: areaInfoQuery, responses: { 200: json(res.areaInfo) } },
];

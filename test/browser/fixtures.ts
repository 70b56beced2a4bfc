import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, newTeam, sdkFor, type TestStack } from '../support/harness.js';
import { createEndpoint, type Receivers } from '../support/webhooks.js';

export const SHIPPING = { receiverName: 'Ann Zed', firstLine: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phoneNumber: '+14155552671' };

/** A fresh team with a webhook receiver and one registered testkit order created through the SDK (its events delivered). */
export async function orderWithReceiver(stack: TestStack, receivers: Receivers) {
  const team = await newTeam(stack);
  const receiver = await receivers.start();
  await createEndpoint(stack, team.apiKey, receiver.url);
  const client = sdkFor(stack, team.apiKey);
  const clientUserId = `patient-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const { userId } = await client.user.create({ clientUserId });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
  const lastName = `Zed${Math.random().toString(36).slice(2, 8)}`;
  const created = await client.testkit.createOrder({ userId, labTestId, shippingDetails: SHIPPING });
  const order = created.order;
  await client.testkit.register({
    sampleId: order.sampleId!,
    patientDetails: { firstName: 'Ann', lastName, dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'ann@example.com' },
    patientAddress: { firstLine: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
  });
  await eventually(async () => receiver.accepted.length >= 4);
  return { team, client, receiver, order, userId, clientUserId, lastName, labTestId };
}

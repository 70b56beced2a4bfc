import { Client, Connection, type DataConverter } from '@temporalio/client';

/** A Temporal client with the service's data converter (payload encryption: lib/payload-codec.ts). */
export async function connectClient(address: string, namespace: string, dataConverter: DataConverter): Promise<Client> {
  const connection = await Connection.connect({ address });
  return new Client({ connection, namespace, dataConverter });
}

/**
 * The tenants most cluster tests start from: a farmer (who owns the test's clusters), another farmer (who must be
 * refused them), a customer, and the customer's batch of `jobs`. Names are prefixed so that tests sharing one
 * database do not meet.
 */
import assert from 'node:assert/strict';
import type { JobSpec } from '../../src/engine/model/types';
import type { Service } from '../../harness/service';

export interface FarmAndShop {
  farmer: string;
  otherFarmer: string;
  customer: string;
  batchId: string;
}

export async function farmAndShop(svc: Service, prefix: string, jobs: JobSpec[]): Promise<FarmAndShop> {
  const farmer = (await svc.tenant(`${prefix}-farm`, ['farmer'])).keys.farmer;
  const otherFarmer = (await svc.tenant(`${prefix}-other-farm`, ['farmer'])).keys.farmer;
  const customer = (await svc.tenant(`${prefix}-shop`, ['customer'])).keys.customer;
  const batch = await svc.client(customer).POST('/v1/batches', { body: { name: jobs[0]?.id ?? prefix, jobs } });
  assert.ok(batch.data, JSON.stringify(batch.error));
  return { farmer, otherFarmer, customer, batchId: batch.data.id };
}

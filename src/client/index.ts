/**
 * A typed TypeScript client of the Fallow API, generated from openapi/openapi.json (`npm run openapi`
 * regenerates schema.ts). The end-to-end tests call the service through it.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type FallowClient = ReturnType<typeof createClient<paths>>;
export type Schemas = components['schemas'];

export function createFallowClient(baseUrl: string, apiKey?: string): FallowClient {
  return createClient<paths>({ baseUrl, headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} });
}

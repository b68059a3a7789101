#!/usr/bin/env node
/** The API process: HTTP on PORT. Solves are queued for the worker process (src/worker.ts). */
import 'reflect-metadata';
import { createApi } from './api/create-api';
import { loadConfig } from './config';
import { AuthService } from './modules/auth/auth.service';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApi(config);
  await app.get(AuthService).bootstrap();
  await app.listen(config.port);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

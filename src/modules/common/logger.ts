import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/** Never log credentials: these paths are replaced wherever they appear in a log line. */
export const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization', 'key', 'apiKey'];

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, redact: { paths: REDACT, censor: '[redacted]' }, base: { pid: process.pid } });
}

/** Nest's own messages (startup, errors) go through pino too, so every line is structured JSON. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}
  log(message: unknown, context?: string) {
    this.pino.info({ context }, String(message));
  }
  error(message: unknown, stack?: string, context?: string) {
    this.pino.error({ context, stack }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.pino.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.pino.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.pino.trace({ context }, String(message));
  }
}

// Structured JSON logs (pino). Secrets, keys and signatures are redacted wherever they could appear.
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'vote-relay' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.authValue',
        '*.auth_value',
        '*.key',
        '*.secret',
        '*.authSecret',
        '*.signingSecret',
      ],
      censor: '[redacted]',
    },
  });
}

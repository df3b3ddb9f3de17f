// Compressed answers (brotli or gzip, as the client accepts) for what browsers and API clients download: the
// dashboard's files, GraphiQL, /graphql and /v1. Event streams are never compressed: the compressor would hold
// each event back until its buffer filled. Hooks are not mounted here: voting sites post small bodies and read
// small answers.
import compression from 'compression';
import type { Request, Response } from 'express';

const isEventStream = (res: Response) => String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream');

export const compress = () => compression({ filter: (req: Request, res: Response) => !isEventStream(res) && compression.filter(req, res) });

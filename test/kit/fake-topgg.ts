// A local stand-in for top.gg's vote list API on 127.0.0.1 (docs.top.gg, API reference:
// GET /v1/projects/@me/votes): bearer token per project, startDate or an opaque cursor, oldest first, small pages,
// RFC 7807 problems, and scriptable failures (429 with Retry-After, 500, a body that is not JSON).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeListedVote {
  user_id: string;
  platform_id: string;
  weight: number;
  created_at: string;
  expires_at: string;
}

export type FakeFailure = { status: 429; retryAfterS: number } | { status: 500 } | { status: 200; body: string };

export interface FakeProject {
  token: string;
  /** The project's votes, in any order (the list answers them oldest first). */
  votes: FakeListedVote[];
  /** Answers for this project's next requests, in order, before the list is served again. */
  fail(...answers: FakeFailure[]): void;
}

export interface FakeRequest {
  token: string | null;
  query: Record<string, string>;
  status: number;
}

export interface FakeTopgg {
  /** The API base, as TOPGG_API_URL takes it. */
  url: string;
  /** Entries per page (small, so paging is exercised). */
  pageSize: number;
  project(token: string): FakeProject;
  requests: FakeRequest[];
  /** Requests made with one token. */
  requestsOf(token: string): FakeRequest[];
  close(): Promise<void>;
}

const YEAR_MS = 365 * 24 * 3_600_000;

/** A vote as the list shows it: created_at with six fractional digits and `Z`, expiring 12 hours later. */
export function listedVote(userId: string, discordId: string, createdAtMs: number, micros = '123', weight = 1): FakeListedVote {
  const at = (ms: number) => new Date(ms).toISOString().replace('Z', `${micros}Z`);
  return { user_id: userId, platform_id: discordId, weight, created_at: at(createdAtMs), expires_at: at(createdAtMs + 12 * 3_600_000) };
}

export async function startFakeTopgg(options: { pageSize?: number; now?: () => number } = {}): Promise<FakeTopgg> {
  const now = options.now ?? Date.now;
  const projects = new Map<string, FakeProject & { script: FakeFailure[] }>();
  const requests: FakeRequest[] = [];

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ token: bearer, query, status });
      const problem = status >= 400 && status !== 429;
      res.writeHead(status, { 'content-type': problem ? 'application/problem+json' : 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const problem = (status: number, title: string, detail: string) => answer(status, { type: 'about:blank', title, status, detail });

    if (req.method !== 'GET' || url.pathname !== '/api/v1/projects/@me/votes') return problem(404, 'Not Found', 'No such route');
    const project = bearer ? projects.get(bearer) : undefined;
    if (!project) return problem(401, 'Unauthorized', 'Invalid or missing token');
    const scripted = project.script.shift();
    if (scripted?.status === 429) {
      return answer(429, { 'retry-after': scripted.retryAfterS }, { 'retry-after': String(scripted.retryAfterS) });
    }
    if (scripted?.status === 500) return problem(500, 'Internal Server Error', 'Something went wrong');
    if (scripted?.status === 200) return answer(200, scripted.body);

    // The cursor is opaque to clients: here, the start instant and the offset of the next page.
    let start: number;
    let offset = 0;
    if (query.cursor !== undefined) {
      try {
        ({ start, offset } = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')) as { start: number; offset: number });
      } catch {
        return problem(400, 'Bad Request', 'Invalid cursor');
      }
    } else if (query.startDate !== undefined) {
      start = Date.parse(query.startDate);
      if (Number.isNaN(start)) return problem(400, 'Bad Request', 'startDate must be an ISO 8601 date');
      if (start < now() - YEAR_MS) return problem(400, 'Bad Request', 'startDate must be at most one year in the past');
    } else {
      return problem(400, 'Bad Request', 'startDate is required without a cursor');
    }
    const listed = project.votes.filter((v) => Date.parse(v.created_at) >= start).sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    const data = listed.slice(offset, offset + fake.pageSize);
    const cursor = data.length === 0 ? '' : Buffer.from(JSON.stringify({ start, offset: offset + data.length })).toString('base64url');
    answer(200, { cursor, data });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeTopgg = {
    url: `http://127.0.0.1:${port}/api`,
    pageSize: options.pageSize ?? 2,
    project(token) {
      let project = projects.get(token);
      if (!project) {
        const script: FakeFailure[] = [];
        project = { token, votes: [], script, fail: (...answers) => void script.push(...answers) };
        projects.set(token, project);
      }
      return project;
    },
    requests,
    requestsOf: (token) => requests.filter((r) => r.token === token),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

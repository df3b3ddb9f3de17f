import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('health endpoints', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.stop());

  it('answers /healthz and /readyz once the database answers', async () => {
    expect(await app.request('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await app.request('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('serves GraphiQL to browsers', async () => {
    const res = await app.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html');
  });
});

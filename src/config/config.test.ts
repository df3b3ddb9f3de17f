import { describe, it, expect } from 'vitest';
import { ConfigError, loadConfig, parseDurationList } from './config.js';
import { allowsPrivate } from './private-targets.js';

const PG_URL = 'postgresql://relay:pw@db.internal:5432/relay';
const KEY = 'a-secret-key-of-at-least-32-characters';

/** The ConfigError thrown by loadConfig(env), for message checks. */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('loadConfig did not throw');
}

describe('parseDurationList', () => {
  it('parses every unit into milliseconds', () => {
    expect(parseDurationList('500ms,5s,2m,1h,1d')).toEqual([500, 5_000, 120_000, 3_600_000, 86_400_000]);
  });

  it('accepts decimals and spaces around items', () => {
    expect(parseDurationList(' 1.5s , 0.5m ,250ms ')).toEqual([1_500, 30_000, 250]);
  });

  it('skips empty items', () => {
    expect(parseDurationList('1s,,2s,')).toEqual([1_000, 2_000]);
    expect(parseDurationList('')).toEqual([]);
  });

  it.each(['5', '5x', 's', '-1s', '1 s', '1S', 'abc', '1s;2s'])('refuses %j', (text) => {
    expect(() => parseDurationList(text)).toThrow(/is not a duration/);
  });
});

describe('loadConfig defaults', () => {
  const config = loadConfig({});

  it('uses the documented defaults', () => {
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.databaseUrl).toBe('file:./data/vote-relay.db');
    expect(config.dialect).toBe('sqlite');
    expect(config.dataDir).toBe('./data');
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.hookBaseUrl).toBe('http://localhost:3000/hooks');
    expect(config.redisUrl).toBeNull();
    expect(config.secretKey).toBeNull();
    expect(config.privateTargets).toEqual({ all: false, rules: [] });
    expect(config.logLevel).toBe('info');
  });

  it('has the default retry schedule 1s,5s,30s,2m,10m,30m,1h,2h,4h,8h in ms', () => {
    expect(config.retryScheduleMs).toHaveLength(10);
    expect(config.retryScheduleMs).toEqual([1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000]);
  });

  it('has the operational defaults', () => {
    expect(config.apiRateLimitPerMinute).toBe(500);
    expect(config.hookRateLimitPerMinute).toBe(500);
    expect(config.deliveryEnabled).toBe(true);
    expect(config.graphqlIntrospection).toBe(true);
  });

  it('treats empty strings as unset', () => {
    const blank = loadConfig({ PORT: '', DATABASE_URL: '', PUBLIC_BASE_URL: '', RETRY_SCHEDULE: '', SECRET_KEY: '' });
    expect(blank.port).toBe(3000);
    expect(blank.databaseUrl).toBe('file:./data/vote-relay.db');
    expect(blank.retryScheduleMs).toHaveLength(10);
    expect(blank.secretKey).toBeNull();
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(config.port).toBe(3000);
  });

  it('does not read process.env when an env is given', () => {
    const before = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadConfig({}).port).toBe(3000);
    } finally {
      if (before === undefined) delete process.env.PORT;
      else process.env.PORT = before;
    }
  });
});

describe('loadConfig settings', () => {
  it('reads PORT and builds the default base URLs from it', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(config.port).toBe(8080);
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
    expect(config.hookBaseUrl).toBe('http://localhost:8080/hooks');
  });

  it('derives hookBaseUrl from PUBLIC_BASE_URL with trailing slashes trimmed', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://relay.example.com///' });
    expect(config.publicBaseUrl).toBe('https://relay.example.com');
    expect(config.hookBaseUrl).toBe('https://relay.example.com/hooks');

    const withPath = loadConfig({ PUBLIC_BASE_URL: 'https://example.com/relay/' });
    expect(withPath.publicBaseUrl).toBe('https://example.com/relay');
    expect(withPath.hookBaseUrl).toBe('https://example.com/relay/hooks');
  });

  it('uses HOOK_BASE_URL when set, trailing slash trimmed', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://relay.example.com', HOOK_BASE_URL: 'https://hooks.example.com/in/' });
    expect(config.hookBaseUrl).toBe('https://hooks.example.com/in');
  });

  it.each([
    ['file:./data/vote-relay.db', './data'],
    ['file:vote.db', '.'],
    ['file:/var/lib/vote-relay/db.sqlite', '/var/lib/vote-relay'],
    ['file:/db.sqlite', '/'],
    ['file:./x/y.db?mode=rwc', './x'],
  ])('sqlite %s keeps its data in %s', (url, dir) => {
    const config = loadConfig({ DATABASE_URL: url });
    expect(config.dialect).toBe('sqlite');
    expect(config.dataDir).toBe(dir);
  });

  it.each([PG_URL, 'postgres://relay@localhost/relay'])('%s is PostgreSQL when SECRET_KEY is set', (url) => {
    const config = loadConfig({ DATABASE_URL: url, SECRET_KEY: KEY });
    expect(config.dialect).toBe('postgresql');
    expect(config.databaseUrl).toBe(url);
    expect(config.dataDir).toBeNull();
    expect(config.secretKey).toBe(KEY);
  });

  it('PostgreSQL without SECRET_KEY throws a ConfigError mentioning SECRET_KEY', () => {
    const error = configError({ DATABASE_URL: PG_URL });
    expect(error.message).toContain('SECRET_KEY');
    expect(configError({ DATABASE_URL: PG_URL, SECRET_KEY: '' }).message).toContain('SECRET_KEY');
  });

  it('refuses a SECRET_KEY shorter than 16 characters', () => {
    expect(configError({ SECRET_KEY: 'short' }).message).toContain('SECRET_KEY');
  });

  it('reads the boolean settings', () => {
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: 'true' }).privateTargets.all).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: '1' }).privateTargets.all).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: 'yes' }).privateTargets.all).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: 'false' }).privateTargets).toEqual({ all: false, rules: [] });
    expect(loadConfig({ DELIVERY_ENABLED: '0' }).deliveryEnabled).toBe(false);
  });

  it('reads ALLOW_PRIVATE_TARGETS as a list, and names each entry that is not one', () => {
    const list = loadConfig({ ALLOW_PRIVATE_TARGETS: '192.168.1.0/24, 127.0.0.1:25575,minecraft.lan:8192,[::1]:25575,fd00::/8' }).privateTargets;
    expect(list.all).toBe(false);
    expect(list.rules.map((r) => [r.kind, r.port])).toEqual([
      ['range', null],
      ['range', 25575],
      ['host', 8192],
      ['range', 25575],
      ['range', null],
    ]);
    // The configuration reaches the worker threads by structured clone: the rules still work there.
    const cloned = structuredClone(list);
    expect(allowsPrivate(cloned, '192.168.1.7', '192.168.1.7', 25565)).toBe(true);
    expect(allowsPrivate(cloned, '127.0.0.1', '127.0.0.1', 25575)).toBe(true);
    expect(allowsPrivate(cloned, '127.0.0.1', '127.0.0.1', 25576)).toBe(false);
    expect(allowsPrivate(cloned, 'localhost', '::1', 25575)).toBe(true);
    const error = configError({ ALLOW_PRIVATE_TARGETS: 'maybe?, 10.0.0.0/33, host:99999' }).message;
    expect(error).toContain('ALLOW_PRIVATE_TARGETS: "maybe?" is not an address, a CIDR range or a host name');
    expect(error).toContain('ALLOW_PRIVATE_TARGETS: "10.0.0.0/33" is not a CIDR range');
    expect(error).toContain('ALLOW_PRIVATE_TARGETS: "host:99999": the port must be a number from 1 to 65535');
  });

  it('reports every configuration problem in one failed start', () => {
    const error = configError({
      DATABASE_URL: PG_URL,
      WEB_CONCURRENCY: '2',
      PORT: 'eighty',
      RETRY_SCHEDULE: 'soon',
      DUPLICATE_WINDOW: '1s',
      REDIS_URL: 'localhost:6379',
    }).message;
    for (const name of ['SECRET_KEY', 'PORT', 'RETRY_SCHEDULE', 'DUPLICATE_WINDOW', 'REDIS_URL']) expect(error).toContain(`\n  ${name}: `);
    expect(error.split('\n')).toHaveLength(6);
    // Without a Redis address at all, the processes' need for one is the problem named.
    expect(configError({ DATABASE_URL: PG_URL, WEB_CONCURRENCY: '2' }).message).toMatch(/SECRET_KEY[\s\S]*WEB_CONCURRENCY: 2 processes need REDIS_URL/);
  });

  it('reads RETRY_SCHEDULE', () => {
    expect(loadConfig({ RETRY_SCHEDULE: '1s,1m' }).retryScheduleMs).toEqual([1_000, 60_000]);
  });

  it('reads REDIS_URL and LOG_LEVEL', () => {
    const config = loadConfig({ REDIS_URL: 'redis://cache:6379', LOG_LEVEL: 'debug' });
    expect(config.redisUrl).toBe('redis://cache:6379');
    expect(config.logLevel).toBe('debug');
  });
});

describe('loadConfig errors name the variable', () => {
  it.each(['abc', '70000', '-1', '3.5'])('bad PORT %j', (port) => {
    const error = configError({ PORT: port });
    expect(error.message).toContain('PORT');
  });

  it.each(['5x', '1s,soon', '10'])('bad RETRY_SCHEDULE %j', (schedule) => {
    const error = configError({ RETRY_SCHEDULE: schedule });
    expect(error.message).toContain('RETRY_SCHEDULE');
  });

  it.each(['mysql://localhost/db', './data/db.sqlite', 'sqlite://x.db', 'http://db'])('bad DATABASE_URL %j', (url) => {
    const error = configError({ DATABASE_URL: url });
    expect(error.message).toContain('DATABASE_URL');
  });

  it('bad PUBLIC_BASE_URL and LOG_LEVEL', () => {
    expect(configError({ PUBLIC_BASE_URL: 'not a url' }).message).toContain('PUBLIC_BASE_URL');
    expect(configError({ LOG_LEVEL: 'loud' }).message).toContain('LOG_LEVEL');
  });

  it('lists every problem at once', () => {
    const error = configError({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).toContain('LOG_LEVEL');
  });

  it('ConfigError is an Error', () => {
    expect(configError({ PORT: 'abc' })).toBeInstanceOf(Error);
  });
});

describe('several processes (WEB_CONCURRENCY) and the instance identity (INSTANCE_ID)', () => {
  const machine = { hostname: () => 'relay-1.example', availableParallelism: () => 6 };
  const pg = { DATABASE_URL: PG_URL, SECRET_KEY: KEY, REDIS_URL: 'redis://cache:6379' };

  it('defaults to one process named after the host and PORT', () => {
    const config = loadConfig({ PORT: '8080' }, machine);
    expect(config.webConcurrency).toBe(1);
    expect(config.instanceId).toBe('relay-1.example:8080');
    expect(config.workerIndex).toBeNull();
    expect(loadConfig({}, machine).instanceId).toBe('relay-1.example:3000');
  });

  it('reads a number, or auto as one process per CPU core, on PostgreSQL', () => {
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '4' }, machine).webConcurrency).toBe(4);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: 'auto' }, machine).webConcurrency).toBe(6);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: 'auto' }, { ...machine, availableParallelism: () => 1 }).webConcurrency).toBe(1);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '1', REDIS_URL: '' }, machine).webConcurrency).toBe(1);
  });

  it.each(['0', '-1', '1.5', 'two', '1025', 'AUTO'])('refuses WEB_CONCURRENCY=%s', (value) => {
    expect(configError({ ...pg, WEB_CONCURRENCY: value }).message).toBe(
      'Invalid configuration:\n  WEB_CONCURRENCY: must be a whole number from 1 to 1024, or auto (one process per CPU core)',
    );
  });

  it('takes several processes on SQLite too (they write through the primary), with REDIS_URL as on PostgreSQL', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '1' }, machine).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '3', REDIS_URL: 'redis://127.0.0.1:6379' }, machine).webConcurrency).toBe(3);
    expect(loadConfig({ WEB_CONCURRENCY: 'auto', REDIS_URL: 'redis://127.0.0.1:6379' }, machine).webConcurrency).toBe(6);
    expect(configError({ WEB_CONCURRENCY: '2' }).message).toBe(
      'Invalid configuration:\n  WEB_CONCURRENCY: 2 processes need REDIS_URL: the live feed, API key revocations and rate limits reach every process through Redis',
    );
  });

  it('refuses several processes without REDIS_URL (the live feed, key revocations and rate limits cross processes through it)', () => {
    expect(configError({ ...pg, REDIS_URL: '', WEB_CONCURRENCY: '2' }).message).toBe(
      'Invalid configuration:\n  WEB_CONCURRENCY: 2 processes need REDIS_URL: the live feed, API key revocations and rate limits reach every process through Redis',
    );
  });

  it('takes INSTANCE_ID as given; a worker of the primary adds its index', () => {
    expect(loadConfig({ INSTANCE_ID: 'eu-1' }, machine).instanceId).toBe('eu-1');
    const worker = loadConfig({ ...pg, WEB_CONCURRENCY: '3', INSTANCE_ID: 'eu-1', VOTE_RELAY_WORKER_INDEX: '2' }, machine);
    expect(worker.instanceId).toBe('eu-1/2');
    expect(worker.workerIndex).toBe(2);
  });

  it.each([
    ['a b', 'must be printable ASCII without spaces'],
    ['tab\there', 'must be printable ASCII without spaces'],
    ['é', 'must be printable ASCII without spaces'],
    ['x'.repeat(101), 'must be at most 100 characters'],
  ])('refuses INSTANCE_ID %j', (value, reason) => {
    expect(configError({ INSTANCE_ID: value }).message).toContain(`INSTANCE_ID: ${reason}`);
  });

  it('with PORT=0 (a port picked at start) the default is unique per process instead of stable', () => {
    const a = loadConfig({ PORT: '0' }, machine).instanceId;
    const b = loadConfig({ PORT: '0' }, machine).instanceId;
    expect(a).toMatch(/^relay-1\.example:0-[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });

  it('keeps a default built from an odd host name within the rules', () => {
    const config = loadConfig({}, { ...machine, hostname: () => 'my box\u00e9' });
    expect(config.instanceId).toBe('my_box_:3000');
  });
});

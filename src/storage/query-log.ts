// Counts the statements Prisma sends, when asked (tests bound N+1 with it).
export function withQueryLog(countQueries: boolean | undefined) {
  let count = 0;
  const log = countQueries ? ([{ emit: 'event', level: 'query' }] as const) : undefined;
  const attach = (client: unknown) => {
    if (countQueries) (client as { $on(event: 'query', cb: () => void): void }).$on('query', () => count++);
  };
  return { log: log as never, attach, count: () => count };
}

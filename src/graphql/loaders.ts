// Per-request DataLoaders: batch the lookups that nested fields repeat (no N+1 across a list).
import DataLoader from 'dataloader';
import type { Services } from '../services.js';
import type { ProviderCounts } from '../modules/providers/providers.service.js';

export function createLoaders(services: Services) {
  return {
    providerCounts: new DataLoader<string, ProviderCounts>(async (ids) => {
      const counts = await services.providers.counts(ids);
      return ids.map((id) => counts.get(id) ?? { votesToday: 0, votesTotal: 0 });
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

// Per-request DataLoaders: batch the lookups that nested fields repeat (no N+1 across a list).
import DataLoader from 'dataloader';
import type { Services } from '../app/services.js';
import type { ProviderCounts } from '../modules/providers/providers.service.js';

export function createLoaders(services: Services) {
  return {
    providerCounts: new DataLoader<string, ProviderCounts>(async (ids) => {
      const counts = await services.providers.counts(ids);
      return ids.map((id) => counts.get(id) ?? { votesToday: 0, votesTotal: 0 });
    }),
    /** A provider's key by id (a callback's routes); null once the provider is gone. */
    providerKey: new DataLoader<string, string | null>(async (ids) => {
      const keys = await services.providers.keysOf(ids);
      return ids.map((id) => keys.get(id) ?? null);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

// The API key the dashboard signs in with: kept in sessionStorage (gone when the tab closes), never elsewhere.
const KEY = 'vote-relay.api-key';

export const readKey = (): string | null => sessionStorage.getItem(KEY);
export const saveKey = (key: string) => sessionStorage.setItem(KEY, key);
export const clearKey = () => sessionStorage.removeItem(KEY);

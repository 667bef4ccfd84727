/** The part of Web Storage a persisted store uses (zustand's StateStorage, synchronous). */
export type SyncStorage = {
  getItem(name: string): string | null;
  setItem(name: string, value: string): void;
  removeItem(name: string): void;
};

/**
 * A storage shared by every tab that writes a value only when it differs from what this tab last read
 * or wrote. A persisted store writes its whole state on any change, even of fields it does not persist
 * (`hydrated`), and each tab reads localStorage through its own copy, which another tab's write reaches a
 * moment later: writing back what it read would put back the tokens another tab has just rotated.
 */
export function writeOnChange(storage: SyncStorage): SyncStorage {
  const known = new Map<string, string | null>();
  return {
    getItem(name) {
      const value = storage.getItem(name);
      known.set(name, value);
      return value;
    },
    setItem(name, value) {
      if (known.get(name) === value) return;
      known.set(name, value);
      storage.setItem(name, value);
    },
    removeItem(name) {
      known.set(name, null);
      storage.removeItem(name);
    },
  };
}

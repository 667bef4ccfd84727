/**
 * The fake providers' storage (oidc-provider's `adapter`): a Map per provider, entries dropped once expired. Given
 * explicitly so that oidc-provider does not fall back to its own quick-start memory adapter, and warn about it on every
 * start; a fake never restarts nor shares its state between processes, which is all that warning is about.
 */
type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };

export function fakeOidcAdapter() {
  const store = new Map<string, { payload: Payload; expiresAt: number }>();
  const live = (key: string): Payload | undefined => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  const findBy = (model: string, field: 'uid' | 'userCode', value: string) => {
    for (const [key, entry] of store) if (key.startsWith(`${model}:`) && entry.payload[field] === value) return live(key);
    return undefined;
  };

  return class FakeOidcAdapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number) {
      store.set(this.key(id), { payload: { ...payload }, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    }

    async find(id: string) {
      const p = live(this.key(id));
      return p && { ...p };
    }

    async findByUid(uid: string) {
      const p = findBy(this.model, 'uid', uid);
      return p && { ...p };
    }

    async findByUserCode(userCode: string) {
      const p = findBy(this.model, 'userCode', userCode);
      return p && { ...p };
    }

    async consume(id: string) {
      const p = live(this.key(id));
      if (p) p.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string) {
      store.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

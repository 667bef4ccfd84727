// The little of oidc-provider 9 (a test-only devDependency without its own types) that the fake providers use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type KoaContext = {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: unknown;
    type: string;
    req: IncomingMessage & { body?: unknown };
    res: ServerResponse;
    request: { body?: unknown };
    params?: Record<string, string>;
    oidc?: { session?: { accountId?: string }; params?: Record<string, unknown> };
    set(name: string, value: string): void;
  };
  export type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void;

  export type InteractionDetails = {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, string | undefined>;
  };

  export class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    Grant: typeof Grant;
    /** The provider's client model (its `compareClientSecret` checks a client_secret_post secret). */
    Client: { prototype: { compareClientSecret(actual: string): Promise<boolean> } };
    use(fn: Middleware): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      opts?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}

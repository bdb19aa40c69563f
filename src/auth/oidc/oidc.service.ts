import { Injectable } from '@nestjs/common';
import { SecretsService } from '../secrets.service.js';
import type { IssuedTokens } from '../sessions.service.js';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { OidcClientService } from './oidc-client.service.js';
import { openTransaction, type OidcTransaction, sealTransaction } from './oidc-transaction.js';

/** The two halves of a provider sign-in, as the controller sees them. */
@Injectable()
export class OidcService {
  constructor(
    private readonly client: OidcClientService,
    private readonly accounts: OidcAccountsService,
    private readonly secrets: SecretsService,
  ) {}

  async begin(redirect: string): Promise<{ authorizationUrl: URL; sealedTransaction: string }> {
    const { authorizationUrl, transaction } = await this.client.begin(redirect);
    return { authorizationUrl, sealedTransaction: sealTransaction(transaction, this.secrets.authSecret) };
  }

  openTransaction(sealed: string | undefined): OidcTransaction | null {
    return openTransaction(sealed, this.secrets.authSecret);
  }

  async complete(callbackUrl: URL, transaction: OidcTransaction, userAgent?: string): Promise<IssuedTokens> {
    const identity = await this.client.complete(callbackUrl, transaction);
    return this.accounts.signIn(identity, userAgent);
  }
}

import { DomainError } from '../../errors';
import type { PricingProblem } from './types';

export type PricingErrorCode =
  | 'invalid_quantity'
  | 'invalid_amount'
  | 'invalid_price_configuration'
  | 'quantity_out_of_range'
  | 'credit_pack_mismatch'
  | 'price_not_found'
  | 'amount_too_large';

const STATUS: Record<PricingErrorCode, number> = {
  invalid_quantity: 400,
  invalid_amount: 400,
  invalid_price_configuration: 422,
  quantity_out_of_range: 422,
  credit_pack_mismatch: 422,
  price_not_found: 422,
  amount_too_large: 422,
};

/**
 * The pricing engine refuses an input or a configuration. A DomainError, so the shared mapper turns it into
 * `{message, code, errors?}` with the status above; a route may catch it and map it otherwise.
 */
export class PricingError extends DomainError {
  readonly status: number;
  constructor(
    override readonly code: PricingErrorCode,
    message: string,
    problems?: PricingProblem[],
  ) {
    super(code, message, problems);
    this.status = STATUS[code];
  }

  get problems(): PricingProblem[] {
    return this.errors ?? [];
  }
}

import { Conflict, NotFound, RuleViolation } from '../../errors';

export const walletNotFound = (id: string) => new NotFound('wallet', id);
export const transactionNotFound = (id: string) => new NotFound('wallet transaction', id);
export const insufficientBalance = (balance: number, amount: number) =>
  new RuleViolation('insufficient_wallet_balance', `The wallet holds ${balance}; ${amount} cannot be taken from it (a balance never goes below zero).`);
export const alreadyReverted = (id: string) => new Conflict(`Wallet transaction '${id}' is already reverted.`, 'transaction_already_reverted');
export const balanceTooLarge = (balance: number, amount: number) =>
  new RuleViolation('wallet_balance_too_large', `The wallet holds ${balance}; adding ${amount} would take it past ${Number.MAX_SAFE_INTEGER} (2^53 − 1), the largest exact amount.`);

import { Conflict, NotFound, RuleViolation } from '../../errors';

export const walletNotFound = (id: string) => new NotFound('wallet', id);
export const transactionNotFound = (id: string) => new NotFound('wallet transaction', id);
export const insufficientBalance = (balance: number, amount: number) =>
  new RuleViolation('insufficient_wallet_balance', `The wallet holds ${balance}; ${amount} cannot be taken from it (a balance never goes below zero).`);
export const alreadyReverted = (id: string) => new Conflict(`Wallet transaction '${id}' is already reverted.`, 'transaction_already_reverted');

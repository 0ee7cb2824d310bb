import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  transactionPath, walletCreateBody, walletListQuery, walletLoadBody, walletResource, walletTransactionResource, walletTransactionsQuery,
  walletUpdateBody,
} from '../../shared/schemas/wallets';

export const walletRoutes: RouteDefinition[] = [
  {
    id: 'createWallet', method: 'POST', path: '/v1/wallets', handler: 'functions/wallets/create.ts',
    scope: 'write', tag: 'Wallets', summary: "Create a customer's wallet (in the customer's currency, which it locks)",
    request: { body: walletCreateBody }, response: { status: 201, schema: walletResource },
  },
  {
    id: 'listWallets', method: 'GET', path: '/v1/wallets', handler: 'functions/wallets/list.ts',
    scope: 'read', tag: 'Wallets', summary: 'List wallets', request: { query: walletListQuery }, response: { status: 200, schema: listOf(walletResource), list: true },
  },
  {
    id: 'listWalletsV2', method: 'GET', path: '/v2/wallets', handler: 'functions/wallets/list-v2.ts',
    scope: 'read', tag: 'Wallets', summary: "List wallets (Hyperline's path; as GET /v1/wallets)", request: { query: walletListQuery }, response: { status: 200, schema: listOf(walletResource), list: true },
  },
  {
    id: 'getWallet', method: 'GET', path: '/v1/wallets/{id}', handler: 'functions/wallets/get.ts',
    scope: 'read', tag: 'Wallets', summary: 'Get a wallet', request: { path: idPath }, response: { status: 200, schema: walletResource },
  },
  {
    id: 'updateWallet', method: 'PUT', path: '/v1/wallets/{id}', handler: 'functions/wallets/update.ts',
    scope: 'write', tag: 'Wallets', summary: 'Pause or activate a wallet, change its auto-load settings',
    request: { path: idPath, body: walletUpdateBody }, response: { status: 200, schema: walletResource },
  },
  {
    id: 'loadWallet', method: 'POST', path: '/v1/wallets/{id}/load', handler: 'functions/wallets/load.ts',
    scope: 'write', tag: 'Wallets', summary: 'Load a wallet (free: at once; paid: once its invoice is paid)',
    request: { path: idPath, body: walletLoadBody }, response: { status: 200, schema: walletResource },
    // A paid load issues its invoice through createInvoice, whose line pricing may read gsi3.
    indexes: ['gsi3'],
  },
  {
    id: 'listWalletTransactions', method: 'GET', path: '/v1/wallets/{id}/transactions', handler: 'functions/wallets/list-transactions.ts',
    scope: 'read', tag: 'Wallets', summary: "List a wallet's transactions, newest first",
    request: { path: idPath, query: walletTransactionsQuery }, response: { status: 200, schema: listOf(walletTransactionResource), list: true },
    indexes: [],
  },
  {
    id: 'revertWalletTransaction', method: 'POST', path: '/v1/wallets/{id}/transactions/{transactionId}/revert', handler: 'functions/wallets/revert.ts',
    scope: 'write', tag: 'Wallets', summary: 'Revert a wallet transaction with its opposite',
    request: { path: transactionPath }, response: { status: 200, schema: walletTransactionResource },
  },
];

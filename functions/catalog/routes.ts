import { exactListMeta, listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  priceBookCreateBody, priceBookListQuery, priceBookResource, priceConfigurationCreateBody, priceConfigurationListQuery,
  priceConfigurationResource, pricesPostBody, pricesUpdateBody, productCreateBody, productListQuery, productResource, productUpdateBody, simulateBody,
  simulationResource,
} from '../../shared/schemas/catalog';

const priceConfigurationList = listOf(priceConfigurationResource, exactListMeta);

export const catalogRoutes: RouteDefinition[] = [
  {
    id: 'createProduct', method: 'POST', path: '/v1/products', handler: 'functions/catalog/create-product.ts',
    scope: 'write', tag: 'Products', summary: 'Create a product', request: { body: productCreateBody }, response: { status: 201, schema: productResource },
  },
  {
    id: 'listProducts', method: 'GET', path: '/v1/products', handler: 'functions/catalog/list-products.ts',
    scope: 'read', tag: 'Products', summary: 'List products', request: { query: productListQuery }, response: { status: 200, schema: listOf(productResource), list: true },
    indexes: ['gsi1', 'gsi3'],
  },
  {
    id: 'getProduct', method: 'GET', path: '/v1/products/{id}', handler: 'functions/catalog/get-product.ts',
    scope: 'read', tag: 'Products', summary: 'Get a product with its price configurations', request: { path: idPath }, response: { status: 200, schema: productResource },
    indexes: ['gsi3'],
  },
  {
    id: 'updateProduct', method: 'PUT', path: '/v1/products/{id}', handler: 'functions/catalog/update-product.ts',
    scope: 'write', tag: 'Products', summary: 'Update a product (partial)', request: { path: idPath, body: productUpdateBody }, response: { status: 200, schema: productResource },
    indexes: ['gsi3'],
  },
  {
    id: 'deleteProduct', method: 'DELETE', path: '/v1/products/{id}', handler: 'functions/catalog/delete-product.ts',
    scope: 'write', tag: 'Products', summary: 'Delete a product', request: { path: idPath }, response: { status: 200, schema: productResource },
    indexes: ['gsi3'],
  },
  {
    id: 'archiveProduct', method: 'PUT', path: '/v1/products/{id}/archive', handler: 'functions/catalog/archive-product.ts',
    scope: 'write', tag: 'Products', summary: 'Archive a product (no longer usable in new quotes, subscriptions, invoices)',
    request: { path: idPath }, response: { status: 200, schema: productResource },
    indexes: ['gsi3'],
  },
  {
    id: 'unarchiveProduct', method: 'PUT', path: '/v1/products/{id}/unarchive', handler: 'functions/catalog/unarchive-product.ts',
    scope: 'write', tag: 'Products', summary: 'Unarchive a product', request: { path: idPath }, response: { status: 200, schema: productResource },
    indexes: ['gsi3'],
  },
  {
    id: 'createPriceConfiguration', method: 'POST', path: '/v1/price-configurations', handler: 'functions/catalog/create-price-configuration.ts',
    scope: 'write', tag: 'Prices', summary: 'Create a price configuration for a product',
    request: { body: priceConfigurationCreateBody }, response: { status: 201, schema: priceConfigurationResource },
  },
  {
    id: 'listPriceConfigurations', method: 'GET', path: '/v1/price-configurations', handler: 'functions/catalog/list-price-configurations.ts',
    scope: 'read', tag: 'Prices', summary: 'List price configurations', request: { query: priceConfigurationListQuery },
    response: { status: 200, schema: priceConfigurationList, list: true },
    indexes: ['gsi1', 'gsi3'],
  },
  {
    id: 'getPriceConfiguration', method: 'GET', path: '/v1/price-configurations/{id}', handler: 'functions/catalog/get-price-configuration.ts',
    scope: 'read', tag: 'Prices', summary: 'Get a price configuration', request: { path: idPath }, response: { status: 200, schema: priceConfigurationResource },
  },
  {
    id: 'updatePrices', method: 'PUT', path: '/v1/price-configurations/{id}/prices', handler: 'functions/catalog/update-prices.ts',
    scope: 'write', tag: 'Prices', summary: 'Replace the prices of a price configuration',
    request: { path: idPath, body: pricesUpdateBody }, response: { status: 200, schema: priceConfigurationResource },
  },
  {
    id: 'postPrices', method: 'POST', path: '/v1/price-configurations/{id}/prices', handler: 'functions/catalog/post-prices.ts',
    scope: 'write', tag: 'Prices', summary: "Replace the prices of a price configuration (Hyperline's method; as PUT)",
    request: { path: idPath, body: pricesPostBody }, response: { status: 200, schema: priceConfigurationResource },
  },
  {
    id: 'archivePriceConfiguration', method: 'PUT', path: '/v1/price-configurations/{id}/archive', handler: 'functions/catalog/archive-price-configuration.ts',
    scope: 'write', tag: 'Prices', summary: 'Archive a price configuration', request: { path: idPath }, response: { status: 200, schema: priceConfigurationResource },
  },
  {
    id: 'simulatePrice', method: 'POST', path: '/v1/price-configurations/{id}/simulate', handler: 'functions/catalog/simulate-price.ts',
    scope: 'write', tag: 'Prices', summary: 'Compute the amount of a quantity, tier by tier',
    request: { path: idPath, body: simulateBody }, response: { status: 200, schema: simulationResource },
  },
  {
    id: 'createPriceBook', method: 'POST', path: '/v1/price-books', handler: 'functions/catalog/create-price-book.ts',
    scope: 'write', tag: 'Prices', summary: 'Create a price book', request: { body: priceBookCreateBody }, response: { status: 201, schema: priceBookResource },
  },
  {
    id: 'listPriceBooks', method: 'GET', path: '/v1/price-books', handler: 'functions/catalog/list-price-books.ts',
    scope: 'read', tag: 'Prices', summary: 'List price books', request: { query: priceBookListQuery }, response: { status: 200, schema: listOf(priceBookResource), list: true },
  },
];

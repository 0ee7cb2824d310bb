import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  promotionCodeCreateBody, promotionCodeListQuery, promotionCodeResource, promotionCodeUpdateBody,
} from '../../shared/schemas/promotion-codes';

export const promotionCodeRoutes: RouteDefinition[] = [
  {
    id: 'createPromotionCode', method: 'POST', path: '/v1/promotion-codes', handler: 'functions/promotion-codes/create.ts',
    scope: 'write', tag: 'Promotion codes', summary: 'Create a promotion code',
    request: { body: promotionCodeCreateBody }, response: { status: 201, schema: promotionCodeResource },
  },
  {
    id: 'listPromotionCodes', method: 'GET', path: '/v1/promotion-codes', handler: 'functions/promotion-codes/list.ts',
    scope: 'read', tag: 'Promotion codes', summary: 'List promotion codes',
    request: { query: promotionCodeListQuery }, response: { status: 200, schema: listOf(promotionCodeResource), list: true },
  },
  {
    id: 'getPromotionCode', method: 'GET', path: '/v1/promotion-codes/{id}', handler: 'functions/promotion-codes/get.ts',
    scope: 'read', tag: 'Promotion codes', summary: 'Get a promotion code',
    request: { path: idPath }, response: { status: 200, schema: promotionCodeResource },
  },
  {
    id: 'updatePromotionCode', method: 'PATCH', path: '/v1/promotion-codes/{id}', handler: 'functions/promotion-codes/update.ts',
    scope: 'write', tag: 'Promotion codes', summary: 'Update a promotion code’s restrictions and availability (partial; null clears)',
    request: { path: idPath, body: promotionCodeUpdateBody }, response: { status: 200, schema: promotionCodeResource },
  },
  {
    id: 'deletePromotionCode', method: 'DELETE', path: '/v1/promotion-codes/{id}', handler: 'functions/promotion-codes/delete.ts',
    scope: 'write', tag: 'Promotion codes', summary: 'Delete a promotion code (soft delete; the code can be reused)',
    request: { path: idPath }, response: { status: 200, schema: promotionCodeResource },
  },
];

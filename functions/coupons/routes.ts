import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { couponCreateBody, couponListQuery, couponResource, couponUpdateBody } from '../../shared/schemas/coupons';

export const couponRoutes: RouteDefinition[] = [
  {
    id: 'createCoupon', method: 'POST', path: '/v1/coupons', handler: 'functions/coupons/create.ts',
    scope: 'write', tag: 'Coupons', summary: 'Create a coupon',
    request: { body: couponCreateBody }, response: { status: 201, schema: couponResource },
  },
  {
    id: 'listCoupons', method: 'GET', path: '/v1/coupons', handler: 'functions/coupons/list.ts',
    scope: 'read', tag: 'Coupons', summary: 'List coupons',
    request: { query: couponListQuery }, response: { status: 200, schema: listOf(couponResource), list: true },
  },
  {
    id: 'getCoupon', method: 'GET', path: '/v1/coupons/{id}', handler: 'functions/coupons/get.ts',
    scope: 'read', tag: 'Coupons', summary: 'Get a coupon',
    request: { path: idPath }, response: { status: 200, schema: couponResource },
  },
  {
    id: 'updateCoupon', method: 'PUT', path: '/v1/coupons/{id}', handler: 'functions/coupons/update.ts',
    scope: 'write', tag: 'Coupons', summary: 'Update a coupon’s name and availability (partial; null clears; the discount is fixed)',
    request: { path: idPath, body: couponUpdateBody }, response: { status: 200, schema: couponResource },
  },
  {
    id: 'deleteCoupon', method: 'DELETE', path: '/v1/coupons/{id}', handler: 'functions/coupons/delete.ts',
    scope: 'write', tag: 'Coupons', summary: 'Delete a coupon (soft delete; its promotion codes stop applying)',
    request: { path: idPath }, response: { status: 200, schema: couponResource },
  },
];

import type { Page } from 'playwright-core';
import type { StripeStandIn } from './server';

/**
 * A stand-in for Stripe.js (https://js.stripe.com/v3/) in the browser tests, served by the test through route
 * interception, never by the service: the pages keep their real CSP, which must allow it as it allows Stripe's.
 * It has the calls the pages' script makes (`Stripe(pk)`, `elements`, `createPaymentMethod`, `confirmSetup`,
 * `confirmPayment`, `handleNextAction`) and makes them as Stripe.js does, against https://api.stripe.com with the
 * publishable key, which the test forwards to the Stripe stand-in: what the browser does really happens there.
 * The element is a text field taking one of Stripe's test PaymentMethods (`pm_card_visa`…) plus a frame from
 * js.stripe.com (the real element is one); 3-D Secure is a dialog with Stripe's test page buttons.
 */
const STRIPE_JS = `(function () {
  'use strict';
  function call(key, method, path, params) {
    var form = new URLSearchParams({ key: key });
    Object.keys(params).forEach(function (name) { if (params[name] != null) form.set(name, params[name]); });
    var url = 'https://api.stripe.com/v1/' + path + (method === 'GET' ? '?' + form : '');
    return fetch(url, method === 'GET' ? {} : { method: 'POST', body: form }).then(function (response) { return response.json(); });
  }
  var idOf = function (secret) { return secret.split('_secret_')[0]; };
  function element(elements) {
    return {
      on: function () {},
      mount: function (target) {
        var box = typeof target === 'string' ? document.querySelector(target) : target;
        var input = document.createElement('input');
        input.id = 'stand-in-card';
        input.autocomplete = 'off';
        var label = document.createElement('label');
        label.htmlFor = input.id;
        label.textContent = 'Card number (Stripe stand-in)';
        var frame = document.createElement('iframe');
        frame.src = 'https://js.stripe.com/v3/elements-inner-payment.html';
        frame.title = 'Secure payment input frame';
        box.append(label, input, frame);
        elements.input = input;
      },
    };
  }
  function challenge(stripe, intent) {
    return new Promise(function (resolve) {
      var dialog = document.createElement('div');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-label', '3-D Secure (Stripe stand-in)');
      var frame = document.createElement('iframe');
      frame.src = 'https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=' + intent.id;
      frame.title = '3-D Secure';
      var complete = document.createElement('button');
      complete.type = 'button';
      complete.textContent = 'Complete authentication';
      var fail = document.createElement('button');
      fail.type = 'button';
      fail.textContent = 'Fail authentication';
      complete.onclick = function () {
        dialog.remove();
        call(stripe.key, 'POST', 'payment_intents/' + intent.id + '/stand_in_authenticate', { client_secret: intent.client_secret }).then(function (body) {
          resolve(body.error ? { error: body.error } : { paymentIntent: body });
        });
      };
      fail.onclick = function () {
        dialog.remove();
        resolve({ error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: 'We are unable to authenticate your payment method.' } });
      };
      dialog.append(frame, complete, fail);
      document.body.append(dialog);
    });
  }
  function settled(stripe, body) {
    if (body.error) return { error: body.error };
    return body.status === 'requires_action' ? challenge(stripe, body) : { paymentIntent: body };
  }
  window.Stripe = function (key) {
    if (!/^pk_/.test(key)) throw new Error('Stripe.js takes a publishable key');
    var stripe = { key: key };
    stripe.elements = function (options) {
      var elements = { options: options || {}, input: null };
      elements.create = function () { return element(elements); };
      elements.submit = function () {
        return Promise.resolve(elements.input && elements.input.value.trim() ? {} : { error: { type: 'validation_error', message: 'Your card number is incomplete.' } });
      };
      return elements;
    };
    stripe.createPaymentMethod = function (options) {
      return call(key, 'POST', 'payment_methods', { type: 'card', test_method: options.elements.input.value.trim() }).then(function (body) {
        return body.error ? { error: body.error } : { paymentMethod: body };
      });
    };
    stripe.confirmSetup = function (options) {
      var secret = options.clientSecret || options.elements.options.clientSecret;
      return call(key, 'POST', 'setup_intents/' + idOf(secret) + '/confirm', { client_secret: secret, test_method: options.elements.input.value.trim() }).then(function (body) {
        return body.error ? { error: body.error } : { setupIntent: body };
      });
    };
    stripe.confirmPayment = function (options) {
      var secret = options.clientSecret || options.elements.options.clientSecret;
      var params = options.confirmParams || {};
      return call(key, 'POST', 'payment_intents/' + idOf(secret) + '/confirm', { client_secret: secret, payment_method: params.payment_method, return_url: params.return_url })
        .then(function (body) { return settled(stripe, body); });
    };
    stripe.handleNextAction = function (options) {
      return call(key, 'GET', 'payment_intents/' + idOf(options.clientSecret), { client_secret: options.clientSecret }).then(function (body) {
        return body.error || body.status === 'requires_action' ? settled(stripe, body) : { paymentIntent: body };
      });
    };
    return stripe;
  };
})();
`;

const blank = (title: string) => `<!doctype html><html lang="en"><title>${title}</title></html>`;

/**
 * Serves the Stripe.js stand-in to `page` in place of Stripe's hosts: js.stripe.com (the script and the element's
 * frame), hooks.stripe.com (the 3-D Secure frame), and api.stripe.com, forwarded to the Stripe stand-in with the
 * publishable key Stripe.js sends as `key` turned into the bearer token the stand-in reads.
 */
export async function serveStripeJs(page: Page, standIn: StripeStandIn): Promise<void> {
  await page.route('https://js.stripe.com/**', (route) =>
    /^\/v3\/?$/.test(new URL(route.request().url()).pathname)
      ? route.fulfill({ status: 200, contentType: 'text/javascript', body: STRIPE_JS })
      : route.fulfill({ status: 200, contentType: 'text/html', body: blank('Stripe element (stand-in)') }),
  );
  await page.route('https://hooks.stripe.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: blank('3-D Secure (stand-in)') }));
  await page.route('https://api.stripe.com/**', async (route) => {
    const request = route.request();
    const asked = new URL(request.url());
    const target = new URL(`${asked.pathname}${asked.search}`, standIn.url);
    const form = new URLSearchParams(request.method() === 'GET' ? asked.search : (request.postData() ?? ''));
    const key = form.get('key') ?? '';
    form.delete('key');
    if (request.method() === 'GET') target.search = form.toString();
    const response = await fetch(target, {
      method: request.method(),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      ...(request.method() === 'GET' ? {} : { body: form.toString() }),
    });
    await route.fulfill({ status: response.status, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: await response.text() });
  });
}

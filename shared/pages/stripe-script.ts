/**
 * The hosted pages' own script for Stripe's Payment Element (docs/payments.md, "The hosted pages with Stripe"),
 * served as a file (`GET /pages/assets/stripe-payment.js`: the pages' CSP allows no inline script). It reads what
 * the server put in `data-` attributes and never decides anything itself: the server charges, saves and settles.
 *
 * - `#stripe-pay` (the invoice page, a new card): the element collects the card, Stripe.js turns it into a
 *   PaymentMethod (`createPaymentMethod`), and the page's own pay form posts its id as `token`: the server charges it
 *   once per form, as the sandbox form's token (a PaymentIntent of the invoice's charge attempt).
 * - `#stripe-card` (the portal): the element confirms the server's SetupIntent (`confirmSetup`), and the add-card form
 *   posts the PaymentMethod it attached.
 * - `#stripe-action` (the invoice page, a charge awaiting 3-D Secure): the existing PaymentIntent's next action
 *   (`handleNextAction`), or, after an off-session charge asked for authentication, the PaymentIntent confirmed again
 *   on session with its method (`confirmPayment`); then the page's return URL, where the server retrieves the
 *   PaymentIntent from Stripe (it never takes the browser's word).
 */
export const STRIPE_PAGE_SCRIPT = `(function () {
  'use strict';
  function fail(form, error) {
    var box = form.querySelector('[data-stripe-error]');
    box.textContent = (error && error.message) || String(error);
    box.hidden = false;
    var button = form.querySelector('button[type=submit], button[data-stripe-submit]');
    if (button) button.disabled = false;
  }
  function unwrap(result) {
    if (result.error) throw result.error;
    return result;
  }
  function mount(form, options) {
    var stripe = Stripe(form.dataset.stripeKey);
    var elements = stripe.elements(options);
    elements.create('payment').mount(form.querySelector('[data-payment-element]'));
    return { stripe: stripe, elements: elements };
  }
  function onSubmit(form, run) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      form.querySelector('[data-stripe-error]').hidden = true;
      form.querySelector('button[type=submit]').disabled = true;
      run().then(function (token) {
        form.elements.token.value = token;
        form.submit();
      }).catch(function (error) { fail(form, error); });
    });
  }
  var absolute = function (path) { return new URL(path, window.location.href).href; };

  var pay = document.getElementById('stripe-pay');
  if (pay) {
    var p = mount(pay, { mode: 'payment', amount: Number(pay.dataset.amount), currency: pay.dataset.currency, paymentMethodCreation: 'manual' });
    onSubmit(pay, function () {
      return p.elements.submit().then(unwrap)
        .then(function () { return p.stripe.createPaymentMethod({ elements: p.elements }); })
        .then(unwrap).then(function (result) { return result.paymentMethod.id; });
    });
  }

  var card = document.getElementById('stripe-card');
  if (card) {
    var c = mount(card, { clientSecret: card.dataset.clientSecret });
    onSubmit(card, function () {
      return c.elements.submit().then(unwrap)
        .then(function () { return c.stripe.confirmSetup({ elements: c.elements, redirect: 'if_required', confirmParams: { return_url: absolute(card.dataset.return) } }); })
        .then(unwrap).then(function (result) {
          var method = result.setupIntent.payment_method;
          return typeof method === 'string' ? method : method.id;
        });
    });
  }

  var action = document.getElementById('stripe-action');
  if (action) {
    var stripe = Stripe(action.dataset.stripeKey);
    var done = absolute(action.dataset.return);
    action.addEventListener('submit', function (event) {
      event.preventDefault();
      action.querySelector('[data-stripe-error]').hidden = true;
      action.querySelector('button[type=submit]').disabled = true;
      var secret = action.dataset.clientSecret;
      var method = action.dataset.paymentMethod;
      var asked = method
        ? stripe.confirmPayment({ clientSecret: secret, redirect: 'if_required', confirmParams: { payment_method: method, return_url: done } })
        : stripe.handleNextAction({ clientSecret: secret });
      asked.then(unwrap).then(function () { window.location.assign(done); }).catch(function (error) { fail(action, error); });
    });
  }
})();
`;

/** Where a page finds the script: beside the pages, under the same prefix as the page's own path (a stage, if any). */
export const stripeScriptPath = (pagePath: string): string => `${pagePath.slice(0, Math.max(0, pagePath.lastIndexOf('/pages/')))}/pages/assets/stripe-payment.js`;

/** Stripe.js, from Stripe's own host as Stripe requires (never bundled or self-hosted). */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

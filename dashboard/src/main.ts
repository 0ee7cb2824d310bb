import { can, signIn, signOut, startSession } from './auth';
import { loadConfig } from './config';
import { h, replace } from './dom';
import { currentLanguage, setLanguage, t, type Language } from './i18n';
import { mount, render, route, startRouter } from './router';
import { priceConfigurationFormScreen, productFormScreen, productScreen, productsScreen } from './screens/catalog';
import { settingsScreen } from './screens/settings';
import { usageScreen } from './screens/usage';
import { eventsScreen } from './screens/events';
import { couponsScreen, promotionCodesScreen } from './screens/coupons';
import { customerFormScreen, customerScreen, customersScreen } from './screens/customers';
import { developersScreen } from './screens/developers';
import { homeScreen } from './screens/home';
import { invoiceScreen, invoicesScreen } from './screens/invoices';
import { newSubscriptionScreen, subscriptionScreen, subscriptionsScreen } from './screens/subscriptions';
import { errorBox } from './ui';

const NAV: Array<[string, Parameters<typeof t>[0]]> = [
  ['/dashboard/', 'home'],
  ['/dashboard/customers', 'customers'],
  ['/dashboard/invoices', 'invoices'],
  ['/dashboard/subscriptions', 'subscriptions'],
  ['/dashboard/catalog', 'catalog'],
  ['/dashboard/usage', 'usage'],
  ['/dashboard/developers', 'developers'],
  ['/dashboard/settings', 'settings'],
];

/** The frame around every screen: navigation (the current one marked), language, sign-out, the status line. */
function shell(app: HTMLElement): HTMLElement {
  const main = h('main', { id: 'main', tabindex: '-1' });
  const nav = h('nav', { 'aria-label': t('mainNavigation') }, h('ul', {}, NAV.map(([href, key]) => h('li', {}, h('a', { href }, t(key))))));
  const markCurrent = () => {
    for (const a of nav.querySelectorAll('a')) {
      const here = a.pathname === '/dashboard/' ? location.pathname === '/dashboard/' : location.pathname.startsWith(a.pathname);
      if (here) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
  };
  document.addEventListener('dashboard:navigated', markCurrent);
  const language = h('select', { id: 'language', 'aria-label': t('language') }, h('option', { value: 'en', selected: currentLanguage() === 'en' }, 'English'), h('option', { value: 'fr', selected: currentLanguage() === 'fr' }, 'Français'));
  language.addEventListener('change', () => {
    setLanguage(language.value as Language);
    boot(); // texts are taken at render: the frame and the screen are drawn again in the new language
  });
  const out = h('button', { type: 'button' }, t('signOut'));
  out.addEventListener('click', () => void signOut().then(() => replace(app, h('main', { id: 'main' }, h('h1', {}, t('signedOut')), h('button', { type: 'button', onclick: () => void signIn('/dashboard/') }, t('signIn'))))));
  replace(
    app,
    h('header', { class: 'top' }, h('p', { class: 'brand' }, t('appName')), nav, h('div', { class: 'session' }, can('admin') ? null : h('span', { class: 'hint' }, t('noAdmin')), language, out)),
    h('div', { id: 'live', role: 'status', 'aria-live': 'polite', class: 'live' }),
    main,
  );
  return main;
}

function boot(): void {
  mount(shell(document.getElementById('app')!));
  void render();
}

route('', homeScreen);
route('/customers', customersScreen);
route('/customers/new', customerFormScreen);
route('/customers/:id', customerScreen);
route('/customers/:id/edit', customerFormScreen);
route('/invoices', invoicesScreen);
route('/invoices/:id', invoiceScreen);
route('/subscriptions', subscriptionsScreen);
route('/subscriptions/new', newSubscriptionScreen);
route('/subscriptions/:id', subscriptionScreen);
route('/catalog', productsScreen);
route('/catalog/products/new', productFormScreen);
route('/catalog/products/:id', productScreen);
route('/catalog/products/:id/prices/new', priceConfigurationFormScreen);
route('/catalog/coupons', couponsScreen);
route('/catalog/promotion-codes', promotionCodesScreen);
route('/usage', usageScreen);
route('/usage/events', eventsScreen);
route('/developers', developersScreen);
route('/settings', settingsScreen);

async function start(): Promise<void> {
  setLanguage(currentLanguage());
  const app = document.getElementById('app')!;
  try {
    const session = await startSession(await loadConfig());
    if ('error' in session) {
      replace(app, h('main', { id: 'main' }, h('h1', {}, t('signInFailed')), errorBox(session.error), h('button', { type: 'button', onclick: () => void signIn('/dashboard/') }, t('signIn'))));
      return;
    }
    history.replaceState(null, '', session.path);
    startRouter((m) => replace(m, h('h1', {}, t('notFound')), h('p', {}, h('a', { href: '/dashboard/' }, t('home')))));
    boot();
  } catch (error) {
    replace(app, h('main', { id: 'main' }, h('h1', {}, t('signInFailed')), errorBox(error)));
  }
}

void start();

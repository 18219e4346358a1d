// The entry point: the header (language, sound), the client-side routes
// (`/` the lobby, `/game/<id>` a game, `/analysis`, `/players`, `/reports`,
// `/rules/<game>`; the last four are loaded when first opened) and seat links
// (`#seat=<token>&side=<side>`).
import * as api from './api.js';
import { h, mount } from './dom.js';
import { LANGUAGES, lang, onLangChange, setLang, t } from './i18n.js';
import { saveSeats, setCatalog, sidesOf } from './common.js';
import { gamePage } from './game.js';
import { lobbyPage } from './lobby.js';
import { setSound, soundLabel, soundOn } from './sound.js';

const main = document.getElementById('main');
const header = document.getElementById('top');

function drawHeader() {
  const language = h(
    'select',
    { id: 'language', 'aria-label': t('lang.label') },
    LANGUAGES.map(([code, name]) => h('option', { value: code, selected: code === lang() }, name)),
  );
  language.addEventListener('change', () => setLang(language.value));
  const sound = h(
    'button',
    { id: 'sound', class: 'secondary', 'aria-pressed': soundOn() ? 'true' : 'false' },
    soundLabel(),
  );
  sound.addEventListener('click', () => {
    setSound(!soundOn());
    drawHeader();
  });
  mount(
    header,
    h('a', { class: 'skip', href: '#main' }, t('nav.skip')),
    h(
      'a',
      { class: 'brand', href: '/', 'data-link': '' },
      h('img', { src: '/favicon.svg', alt: '', width: 28, height: 28 }),
      'tablero',
    ),
    h('span', { class: 'tagline' }, t('app.tagline')),
    h(
      'nav',
      {},
      h('a', { href: '/', 'data-link': '', id: 'nav-new' }, t('nav.new')),
      h('a', { href: '/analysis', 'data-link': '', id: 'nav-analysis' }, t('nav.analysis')),
      h('a', { href: '/players', 'data-link': '', id: 'nav-players' }, t('nav.players')),
      h('a', { href: '/reports', 'data-link': '', id: 'nav-reports' }, t('nav.reports')),
      h('a', { href: '/rules/chess', 'data-link': '', id: 'nav-rules' }, t('nav.rulesShort')),
    ),
    h('div', { class: 'tools' }, language, sound),
  );
  document.title = `tablero — ${t('app.tagline')}`;
}

export function navigate(path) {
  history.pushState({}, '', path);
  route();
}

/** Tears down the page shown (its sockets, timers and listeners), if it has any. */
let unmountPage = null;

async function route() {
  unmountPage?.();
  unmountPage = null;
  for (const link of header.querySelectorAll('nav a')) {
    const href = link.getAttribute('href');
    const here = href === location.pathname || (href.startsWith('/rules/') && location.pathname.startsWith('/rules'));
    if (here) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const match = location.pathname.match(/^\/game\/([A-Za-z0-9_-]+)\/?$/);
  if (match) {
    const id = match[1];
    if (location.hash.includes('seat=')) await takeSeat(id);
    unmountPage = gamePage(mount(main), id);
  } else if (/^\/analysis\/?$/.test(location.pathname)) {
    const { analysisPage } = await import('./analysis.js');
    unmountPage = analysisPage(mount(main));
  } else if (/^\/players\/?$/.test(location.pathname)) {
    const { playersPage } = await import('./players.js');
    playersPage(mount(main));
  } else if (/^\/rules(\/[a-z0-9]+)?\/?$/.test(location.pathname)) {
    const { rulesPage } = await import('./rules.js');
    const game = location.pathname.split('/')[2] || 'chess';
    await rulesPage(mount(main), game, new URLSearchParams(location.search), navigate);
  } else if (/^\/reports\/?$/.test(location.pathname)) {
    const { reportsPage } = await import('./reports.js');
    reportsPage(mount(main));
  } else {
    lobbyPage(mount(main), navigate);
  }
}

// An invitation: keep the token on this device and take it out of the address bar,
// so that the address can be shared to watch.
async function takeSeat(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('seat');
  let side = params.get('side');
  if (token) {
    if (!side) {
      // Links without a side come from the API: the creator holds the first side.
      try {
        const state = await api.gameState(id);
        side = sidesOf(state.game)[1];
      } catch {
        side = 'black';
      }
    }
    saveSeats(id, { [side]: token });
  }
  history.replaceState({}, '', location.pathname);
}

document.addEventListener('click', (event) => {
  const link = event.target instanceof Element && event.target.closest('a[data-link]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute('href'));
});
window.addEventListener('popstate', route);
onLangChange(() => {
  drawHeader();
  // Pages that redraw themselves on a language change keep their state.
  if (!location.pathname.startsWith('/game/') && !location.pathname.startsWith('/analysis')) route();
});

drawHeader();
api
  .catalog()
  .then(setCatalog, () => {})
  .then(route);

// The reports page: a report chosen from the four (the board of a game as a sparse
// matrix, its squares as a linked list, the player tree, the top 10) drawn as an image
// from the server's SVG, with a download of the same report as DOT. The choice is kept
// in the address (`/reports?kind=board&game_id=<id>&level=1`), so a game page can link
// to the reports of its game.
import * as api from './api.js';
import { h, mount } from './dom.js';
import { errorText, t } from './i18n.js';
import { games, sideLabel, sidesOf } from './common.js';

const KINDS = ['board', 'linear', 'players', 'top10'];
const LEVELS = [0, 1, 2];

/** The choice read from the address, with defaults. */
function fromAddress() {
  const q = new URLSearchParams(location.search);
  const kind = KINDS.includes(q.get('kind')) ? q.get('kind') : 'board';
  const level = Number(q.get('level'));
  return {
    kind,
    source: q.get('game_id') ? `id:${q.get('game_id')}` : q.get('game') ? `start:${q.get('game')}` : '',
    level: LEVELS.includes(level) ? level : 0,
    order: q.get('order') === 'column' ? 'column' : 'row',
  };
}

function toAddress(choice) {
  const q = new URLSearchParams({ kind: choice.kind });
  if (choice.kind === 'board' || choice.kind === 'linear') {
    const [type, value] = splitSource(choice.source);
    if (type === 'id') q.set('game_id', value);
    if (type === 'start') q.set('game', value);
    q.set('level', String(choice.level));
    if (choice.kind === 'linear') q.set('order', choice.order);
  }
  return `/reports?${q}`;
}

function splitSource(source) {
  const at = source.indexOf(':');
  return at < 0 ? ['', ''] : [source.slice(0, at), source.slice(at + 1)];
}

// The image's object URL, released when the next one replaces it.
let objectUrl = null;
// Whether the image is shown at its own size (scrolling) rather than fitted to the page.
let actualSize = false;

export function reportsPage(root) {
  const choice = fromAddress();
  const form = h('section', { class: 'card report-form', 'aria-labelledby': 'reports-heading' });
  const result = h('section', { class: 'card report-result', 'aria-live': 'polite' });
  mount(root, h('div', { class: 'reports-page' }, form, result));
  // The games to choose from: {id, game, label}; loaded once per visit.
  let sources = [];
  // Counts the reports asked for, so that only the last one asked is shown.
  let shown = 0;
  load();

  async function load() {
    const [playing, finished] = await Promise.all([
      api.listGames({ status: 'playing' }).catch(() => ({ games: [] })),
      api.listGames({ status: 'finished' }).catch(() => ({ games: [] })),
    ]);
    sources = [...playing.games, ...finished.games].map((g) => ({ id: g.id, game: g.game, label: gameLabel(g) }));
    const [type, value] = splitSource(choice.source);
    if (type === 'id' && !sources.some((s) => s.id === value)) {
      // A game outside the lists (an older one): ask for it by id.
      try {
        const state = await api.gameState(value);
        sources.unshift({ id: value, game: state.game, label: gameLabel({ ...state, plies: state.moves.length }) });
      } catch (_e) {
        sources.unshift({ id: value, game: '', label: value });
      }
    }
    if (!choice.source)
      choice.source = sources.length ? `id:${sources[0].id}` : `start:${(games()[0] || { id: 'chess' }).id}`;
    drawForm();
    show();
  }

  function gameLabel(g) {
    const names = sidesOf(g.game).map((side) => {
      const p = g.players?.[side] || {};
      return p.computer ? t('player.computer', { level: p.computer }) : p.name || sideLabel(side);
    });
    const variant = g.variant && g.variant !== 'standard' ? ` · ${t(`variant.${g.variant}`)}` : '';
    return `${t(`game.${g.game}`)}${variant} · ${t('list.vs', { a: names[0], b: names[1] })} · ${t('list.plies', { n: g.plies ?? 0 })}`;
  }

  /** The game kind of the chosen source: chess3d has levels. */
  function sourceGame() {
    const [type, value] = splitSource(choice.source);
    if (type === 'start') return value;
    const found = sources.find((s) => s.id === value);
    return found ? found.game : '';
  }

  function changed() {
    history.replaceState({}, '', toAddress(choice));
    drawForm();
    show();
  }

  function drawForm() {
    const parts = [h('h1', { id: 'reports-heading' }, t('reports.heading'))];
    parts.push(
      h(
        'fieldset',
        {},
        h('legend', {}, t('reports.kind')),
        h(
          'div',
          { class: 'radios', role: 'radiogroup' },
          KINDS.map((kind) => {
            const input = h('input', {
              type: 'radio',
              name: 'report-kind',
              value: kind,
              id: `report-${kind}`,
              checked: kind === choice.kind,
            });
            input.addEventListener('change', () => {
              choice.kind = kind;
              changed();
            });
            return h('label', { for: `report-${kind}`, class: 'radio' }, input, h('span', {}, t(`reports.${kind}`)));
          }),
        ),
      ),
    );
    parts.push(h('p', { class: 'hint' }, t(`reports.${choice.kind}Help`)));
    if (choice.kind === 'board' || choice.kind === 'linear') {
      const select = h(
        'select',
        { id: 'report-game' },
        sources.length
          ? h(
              'optgroup',
              { label: t('reports.games') },
              sources.map((s) =>
                h('option', { value: `id:${s.id}`, selected: choice.source === `id:${s.id}` }, s.label),
              ),
            )
          : null,
        h(
          'optgroup',
          { label: t('reports.starts') },
          games().map((g) =>
            h(
              'option',
              { value: `start:${g.id}`, selected: choice.source === `start:${g.id}` },
              t('reports.start', { game: t(`game.${g.id}`) }),
            ),
          ),
        ),
      );
      select.addEventListener('change', () => {
        choice.source = select.value;
        changed();
      });
      parts.push(h('div', { class: 'field' }, h('label', { for: 'report-game' }, t('reports.game')), select));
      if (sourceGame() === 'chess3d') {
        const level = h(
          'select',
          { id: 'report-level' },
          LEVELS.map((n) => h('option', { value: n, selected: n === choice.level }, t('level.label', { n }))),
        );
        level.addEventListener('change', () => {
          choice.level = Number(level.value);
          changed();
        });
        parts.push(h('div', { class: 'field' }, h('label', { for: 'report-level' }, t('reports.level')), level));
      }
      if (choice.kind === 'linear') {
        parts.push(
          h(
            'fieldset',
            {},
            h('legend', {}, t('reports.order')),
            h(
              'div',
              { class: 'radios', role: 'radiogroup' },
              ['row', 'column'].map((order) => {
                const input = h('input', {
                  type: 'radio',
                  name: 'report-order',
                  value: order,
                  id: `order-${order}`,
                  checked: order === choice.order,
                });
                input.addEventListener('change', () => {
                  choice.order = order;
                  changed();
                });
                return h(
                  'label',
                  { for: `order-${order}`, class: 'radio' },
                  input,
                  h('span', {}, t(`reports.order.${order}`)),
                );
              }),
            ),
          ),
        );
      }
    }
    mount(form, parts);
  }

  /** The API parameters of the current choice. */
  function params() {
    if (choice.kind !== 'board' && choice.kind !== 'linear') return {};
    const [type, value] = splitSource(choice.source);
    const out = type === 'id' ? { game_id: value } : { game: value };
    if (sourceGame() === 'chess3d') out.level = choice.level;
    if (choice.kind === 'linear') out.order = choice.order;
    return out;
  }

  async function show() {
    const mine = ++shown;
    const kind = choice.kind;
    const query = params();
    mount(result, h('p', { class: 'loading' }, t('game.loading')));
    let svg;
    try {
      svg = await api.reportSvg(kind, query);
    } catch (e) {
      if (mine === shown)
        mount(result, h('p', { class: 'error', role: 'alert' }, t('error.prefix', { message: errorText(e) })));
      return;
    }
    if (mine !== shown || !result.isConnected) return;
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    const title = t(`reports.${kind}`);
    const image = h(
      'div',
      { class: `report-image${actualSize ? ' actual' : ''}` },
      h('img', { id: 'report-image', src: objectUrl, alt: t('reports.alt', { report: title }) }),
    );
    const size = h(
      'button',
      { class: 'secondary', id: 'report-size', 'aria-pressed': actualSize ? 'true' : 'false' },
      t('reports.actualSize'),
    );
    size.addEventListener('click', () => {
      actualSize = !actualSize;
      image.classList.toggle('actual', actualSize);
      size.setAttribute('aria-pressed', actualSize ? 'true' : 'false');
    });
    mount(
      result,
      h(
        'div',
        { class: 'report-actions' },
        h('h2', {}, title),
        size,
        h(
          'a',
          {
            class: 'button secondary',
            id: 'report-dot',
            href: api.reportUrl(kind, query, 'dot'),
            download: `tablero-${kind}.dot`,
          },
          t('reports.dot'),
        ),
        h(
          'a',
          { class: 'button secondary', id: 'report-svg', href: objectUrl, download: `tablero-${kind}.svg` },
          t('reports.svg'),
        ),
      ),
      image,
    );
  }
}

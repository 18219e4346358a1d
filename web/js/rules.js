// The rules pages, `/rules/<game>` (draughts: `?variant=<rule set>`): how each piece
// moves, with diagrams, how a game ends and how moves are written. The texts live in
// rules/<language>.js, loaded with the page; the diagrams in rules/diagrams.js.
import { h, mount } from './dom.js';
import { lang, t } from './i18n.js';
import { diagram, diagramsOf, drawDiagram, targetsOf } from './rules/diagrams.js';

const GAMES = ['chess', 'xiangqi', 'draughts', 'chess3d'];
const RULE_SETS = ['international', 'english', 'brazilian', 'russian', 'spanish', 'italian'];

/** Shows the rules of `game` in `root`; `params` the address's query. */
export async function rulesPage(root, game, params, navigate) {
  const shown = GAMES.includes(game) ? game : 'chess';
  const variant = RULE_SETS.includes(params.get('variant')) ? params.get('variant') : 'international';
  const { default: text } = await import(`./rules/${lang()}.js`);
  const book = text.games[shown];

  const tabs = h(
    'nav',
    { class: 'rules-games', 'aria-label': text.games_label },
    GAMES.map((g) =>
      h('a', { href: `/rules/${g}`, 'data-link': '', 'aria-current': g === shown ? 'page' : null }, t(`game.${g}`)),
    ),
  );
  let ruleSet = null;
  if (shown === 'draughts') {
    const choice = h(
      'select',
      { id: 'rules-variant' },
      RULE_SETS.map((v) => h('option', { value: v, selected: v === variant }, t(`variant.${v}`))),
    );
    choice.addEventListener('change', () => navigate(`/rules/draughts?variant=${choice.value}`));
    ruleSet = h(
      'p',
      { class: 'field rules-variant' },
      h('label', { for: 'rules-variant' }, t('lobby.variant')),
      choice,
    );
  }

  const pieces = diagramsOf(shown).map((id) => {
    const d = diagram(id, variant);
    const caption = text.diagrams[id];
    return h(
      'figure',
      { class: 'rules-diagram', id: `diagram-${id.replace('.', '-')}` },
      drawDiagram(d, targetsOf(d), caption, (n) => t('level.label', { n })),
      h('figcaption', {}, caption),
    );
  });

  mount(
    root,
    h(
      'article',
      { class: 'rules', 'data-game': shown },
      tabs,
      h('h1', {}, `${text.title} · ${t(`game.${shown}`)}`),
      ruleSet,
      book.map((section) =>
        h(
          'section',
          {},
          h('h2', {}, section.h),
          section.body.map((block) => render(block, shown === 'draughts' ? variant : null)),
          section.pieces ? h('div', { class: 'rules-diagrams' }, pieces) : null,
        ),
      ),
    ),
  );
  document.title = `tablero — ${text.title} · ${t(`game.${shown}`)}`;
}

// A paragraph (text), a list (an array of texts) or a table ({rows}, the first row the
// heading; with {variant} a draughts rule set's row is marked).
function render(block, variant) {
  if (typeof block === 'string') return h('p', {}, block);
  if (Array.isArray(block))
    return h(
      'ul',
      {},
      block.map((item) => h('li', {}, item)),
    );
  const [head, ...rows] = block.rows;
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'data rules-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((cell) => h('th', { scope: 'col' }, cell)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row, i) =>
          h(
            'tr',
            { class: block.variants?.[i] === variant ? 'current' : null },
            row.map((cell, j) => (j === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell))),
          ),
        ),
      ),
    ),
  );
}

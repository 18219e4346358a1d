// The lobby: a new game (game, rules, opponent, level and side, time control, start
// position, names), the invitation of an online game, the lists of games, import.
import * as api from './api.js';
import { h, mount } from './dom.js';
import { errorText, t } from './i18n.js';
import { games, reasonText, rulesPath, saveSeats, seatGameIds, seatsOf, sideLabel, sidesOf } from './common.js';

const PRESETS = [
  ['1+0', 1, 0],
  ['3+2', 3, 2],
  ['5+3', 5, 3],
  ['10+5', 10, 5],
  ['15+10', 15, 10],
  ['30+20', 30, 20],
];

// What the form holds between renders (a language change redraws it).
const form = {
  game: 'chess',
  variant: {},
  mode: 'hotseat',
  level: 3,
  side: 'first',
  clock: 'none',
  minutes: 10,
  increment: 5,
  position: '',
  names: {},
};

// The lists' filters: a game id and a status, '' for all.
const filters = { game: '', status: '' };

// A page of a list, and the most own games one listing asks for (the API's limit).
const PAGE = 30;
const MOST_IDS = 200;

/** `1–0 White wins · Black is checkmated`, `½–½ Draw · agreed by both players`. */
function resultText(g, sides) {
  const score = !g.winner ? '½–½' : g.winner === sides[0] ? '1–0' : '0–1';
  const title = g.winner ? t('over.wins', { side: sideLabel(g.winner) }) : t('over.draw');
  const reason = g.reason ? reasonText({ winner: g.winner, reason: g.reason, text: '' }, sides) : '';
  return `${score} ${title}${reason ? ` · ${reason}` : ''}`;
}

// The next page of the listings `queries` taken one after the other: `{games, more}`.
function pager(queries) {
  let index = 0;
  let offset = 0;
  return async () => {
    const games = [];
    while (index < queries.length && games.length < PAGE) {
      const want = PAGE - games.length;
      // One more than wanted tells whether this listing goes on.
      const page = await api.listGames({ ...queries[index], limit: want + 1, offset });
      games.push(...page.games.slice(0, want));
      if (page.games.length > want) {
        offset += want;
      } else {
        index += 1;
        offset = 0;
      }
    }
    return { games, more: index < queries.length };
  };
}

export function lobbyPage(root, navigate) {
  const formBox = h('section', { class: 'card new-game', 'aria-labelledby': 'new-heading' });
  const invite = h('section', { class: 'card invite', hidden: true, 'aria-live': 'polite' });
  const lists = h('section', { class: 'card lists' });
  const importBox = h('section', { class: 'card import', 'aria-labelledby': 'import-heading' });
  mount(
    root,
    h(
      'div',
      { class: 'lobby' },
      h('div', { class: 'col' }, formBox, invite),
      h('div', { class: 'col' }, lists, importBox),
    ),
  );
  drawForm();
  drawLists();
  drawImport();

  function radios(name, options, value, change) {
    return h(
      'div',
      { class: 'radios', role: 'radiogroup' },
      options.map(([id, label]) => {
        const input = h('input', { type: 'radio', name, value: id, id: `${name}-${id}`, checked: id === value });
        input.addEventListener('change', () => change(id));
        return h('label', { for: `${name}-${id}`, class: 'radio' }, input, h('span', {}, label));
      }),
    );
  }

  function select(id, options, value, change) {
    const el = h(
      'select',
      { id },
      options.map(([v, label]) => h('option', { value: v, selected: String(v) === String(value) }, label)),
    );
    el.addEventListener('change', () => change(el.value));
    return el;
  }

  function field(label, control, hint) {
    const id = control.id;
    return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint ? h('small', {}, hint) : null);
  }

  function drawForm() {
    const info = games().find((g) => g.id === form.game) || games()[0];
    if (!info) return;
    const [first, second] = info.sides;
    const variant = form.variant[info.id] || info.default_variant;
    const controls = [];
    controls.push(h('h1', { id: 'new-heading' }, t('lobby.heading')));
    controls.push(
      h(
        'fieldset',
        {},
        h('legend', {}, t('lobby.game')),
        radios(
          'game',
          games().map((g) => [g.id, t(`game.${g.id}`)]),
          info.id,
          (v) => {
            form.game = v;
            if (form.clock === 'game') form.clock = 'none';
            drawForm();
          },
        ),
      ),
    );
    controls.push(
      h(
        'p',
        { class: 'rules-link' },
        h(
          'a',
          { href: rulesPath(info.id, info.id === 'draughts' ? variant : null), 'data-link': '', id: 'lobby-rules' },
          t('nav.rules', { game: t(`game.${info.id}`) }),
        ),
      ),
    );
    if (info.variants.length > 1) {
      controls.push(
        field(
          t('lobby.variant'),
          select(
            'variant',
            info.variants.map((v) => [v.id, t(`variant.${v.id}`)]),
            variant,
            (v) => {
              form.variant[info.id] = v;
              drawForm();
            },
          ),
        ),
      );
    }
    controls.push(
      h(
        'fieldset',
        {},
        h('legend', {}, t('lobby.mode')),
        radios(
          'mode',
          [
            ['hotseat', t('mode.hotseat')],
            ['computer', t('mode.computer')],
            ['online', t('mode.online')],
          ],
          form.mode,
          (v) => {
            form.mode = v;
            drawForm();
          },
        ),
      ),
    );
    if (form.mode === 'computer') {
      controls.push(
        field(
          t('lobby.level'),
          select(
            'level',
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => [n, String(n)]),
            form.level,
            (v) => {
              form.level = Number(v);
            },
          ),
        ),
      );
    }
    if (form.mode !== 'hotseat') {
      controls.push(
        field(
          t('lobby.side'),
          select(
            'side',
            [
              ['first', sideLabel(first)],
              ['second', sideLabel(second)],
              ['random', t('side.random')],
            ],
            form.side,
            (v) => {
              form.side = v;
            },
          ),
        ),
      );
    }
    const clockOptions = [
      ['none', t('clock.none')],
      ...PRESETS.map(([label]) => [label, label]),
      ['custom', t('clock.custom')],
    ];
    if (info.clocks.includes('game')) clockOptions.push(['game', t('clock.game')]);
    controls.push(
      field(
        t('lobby.clock'),
        select('clock', clockOptions, form.clock, (v) => {
          form.clock = v;
          drawForm();
        }),
      ),
    );
    if (form.clock === 'custom' || form.clock === 'game') {
      const minutes = h('input', { id: 'minutes', type: 'number', min: 1, max: 1440, value: form.minutes });
      minutes.addEventListener('input', () => (form.minutes = Number(minutes.value)));
      controls.push(field(t('clock.minutes'), minutes));
      if (form.clock === 'custom') {
        const increment = h('input', { id: 'increment', type: 'number', min: 0, max: 600, value: form.increment });
        increment.addEventListener('input', () => (form.increment = Number(increment.value)));
        controls.push(field(t('clock.increment'), increment));
      }
    }
    const position = h('input', { id: 'position', value: form.position, autocomplete: 'off', spellcheck: 'false' });
    position.addEventListener('input', () => (form.position = position.value));
    controls.push(field(t('lobby.position'), position, t(`lobby.positionHint.${info.id}`)));
    for (const side of info.sides) {
      const input = h('input', {
        id: `name-${side}`,
        value: form.names[side] || '',
        maxlength: 32,
        autocomplete: 'off',
      });
      input.addEventListener('input', () => (form.names[side] = input.value));
      controls.push(field(t('lobby.name', { side: sideLabel(side) }), input));
    }
    const error = h('p', { class: 'error', role: 'alert' });
    const submit = h('button', { type: 'submit', class: 'primary', id: 'create' }, t('lobby.create'));
    controls.push(error, submit);
    const el = h('form', {}, controls);
    el.addEventListener('submit', async (event) => {
      event.preventDefault();
      submit.disabled = true;
      try {
        await create(info, error);
      } finally {
        submit.disabled = false;
      }
    });
    mount(formBox, el);
  }

  async function create(info, error) {
    const [first, second] = info.sides;
    const mine =
      form.side === 'second' ? second : form.side === 'random' ? info.sides[Math.random() < 0.5 ? 0 : 1] : first;
    const other = mine === first ? second : first;
    const players = {};
    for (const side of info.sides) {
      const name = (form.names[side] || '').trim();
      if (name) players[side] = { name };
    }
    const body = { game: info.id, variant: form.variant[info.id] || info.default_variant };
    if (form.mode === 'computer') {
      players[other] = { computer: form.level };
      body.mode = 'computer';
    } else if (form.mode === 'online') {
      body.mode = 'online';
      body.side = mine;
    } else {
      body.mode = 'hotseat';
    }
    body.players = players;
    const preset = PRESETS.find(([label]) => label === form.clock);
    if (preset) body.clock = { kind: 'fischer', initial_ms: preset[1] * 60000, increment_ms: preset[2] * 1000 };
    if (form.clock === 'custom') {
      body.clock = {
        kind: 'fischer',
        initial_ms: Math.round(form.minutes * 60000),
        increment_ms: Math.round(form.increment * 1000),
      };
    }
    if (form.clock === 'game')
      body.clock = { kind: 'game', initial_ms: Math.round(form.minutes * 60000), increment_ms: 0 };
    if (form.position.trim()) body.position = form.position.trim();
    try {
      const created = await api.createGame(body);
      saveSeats(created.id, created.seats);
      if (created.invite) {
        showInvite(created);
      } else {
        navigate(`/game/${created.id}`);
      }
    } catch (e) {
      error.textContent = t('error.prefix', { message: errorText(e) });
    }
  }

  function showInvite(created) {
    const link = `${location.origin}${created.invite.path}&side=${encodeURIComponent(created.invite.side)}`;
    const input = h('input', { id: 'invite-link', value: link, readonly: true });
    const copied = h('span', { class: 'copied', role: 'status' });
    const copy = h('button', { type: 'button', id: 'copy-invite' }, t('lobby.copy'));
    copy.addEventListener('click', async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        // Without clipboard access the selected text can be copied by hand.
      }
      copied.textContent = t('lobby.copied');
    });
    mount(
      invite,
      h('h2', {}, t('lobby.invite', { side: sideLabel(created.invite.side) })),
      h('p', {}, t('lobby.inviteHelp')),
      h('div', { class: 'row' }, input, copy),
      copied,
      h(
        'p',
        {},
        h(
          'a',
          { class: 'button primary', href: `/game/${created.id}`, 'data-link': '', id: 'open-board' },
          t('lobby.open'),
        ),
      ),
    );
    invite.hidden = false;
    input.focus();
    input.select();
  }

  function drawLists() {
    const gameFilter = select(
      'list-game',
      [['', t('list.allGames')], ...games().map((g) => [g.id, t(`game.${g.id}`)])],
      filters.game,
      (v) => {
        filters.game = v;
        drawLists();
      },
    );
    const statusFilter = select(
      'list-status',
      [
        ['', t('list.anyStatus')],
        ['playing', t('list.playing')],
        ['finished', t('list.finished')],
      ],
      filters.status,
      (v) => {
        filters.status = v;
        drawLists();
      },
    );
    const game = filters.game || undefined;
    const statuses = filters.status ? [filters.status] : ['playing', 'finished'];
    const ids = seatGameIds(MOST_IDS);
    mount(
      lists,
      h('div', { class: 'filters' }, field(t('lobby.game'), gameFilter), field(t('list.status'), statusFilter)),
      gameList(
        'mine',
        t('lobby.mine'),
        ids.length ? statuses.map((status) => ({ status, game, ids })) : [],
        t('lobby.mineNone'),
      ),
      statuses.map((status) =>
        gameList(
          status === 'playing' ? 'ongoing' : 'finished',
          t(status === 'playing' ? 'lobby.ongoing' : 'lobby.finished'),
          [{ status, game }],
          t('lobby.none'),
        ),
      ),
    );
  }

  // A titled list that shows the summaries of `queries` one after the other (games
  // in progress before finished ones), a page at a time.
  function gameList(cls, title, queries, emptyText) {
    const headingId = `${cls}-heading`;
    const ul = h('ul', { class: 'game-list', 'aria-labelledby': headingId });
    const empty = h('p', { class: 'empty', hidden: true }, emptyText);
    const more = h('button', { type: 'button', class: 'secondary more', hidden: true }, t('list.more'));
    const next = pager(queries);
    // A busy flag rather than `disabled`, which would take the focus off the button.
    let loading = false;
    const load = async () => {
      if (loading) return;
      loading = true;
      let page;
      try {
        page = await next();
      } catch (e) {
        empty.textContent = t('error.prefix', { message: errorText(e) });
        empty.hidden = false;
        return;
      } finally {
        loading = false;
      }
      const items = page.games.map((g) => item(g, cls === 'mine'));
      ul.append(...items);
      empty.hidden = ul.children.length > 0;
      const hadFocus = document.activeElement === more;
      more.hidden = !page.more;
      // The button vanished under the keyboard's focus: the first new game takes it.
      if (hadFocus && more.hidden && items.length) items[0].querySelector('a').focus();
    };
    more.addEventListener('click', load);
    load();
    return h('div', { class: `games ${cls}` }, h('h2', { id: headingId }, title), ul, empty, more);
  }

  function item(g, mine) {
    const sides = sidesOf(g.game);
    const names = sides.map((side) => {
      const p = g.players[side] || {};
      return p.computer ? t('player.computer', { level: p.computer }) : p.name || sideLabel(side);
    });
    const variant = g.variant === 'standard' ? '' : ` · ${t(`variant.${g.variant}`)}`;
    let status = null;
    if (g.status === 'finished') {
      // The leading space parts the texts in the link's name; the block shows none.
      status = h('span', { class: 'result' }, ` ${resultText(g, sides)}`);
    } else if (g.turn) {
      const held = Object.keys(seatsOf(g.id));
      // With both seats (two players on this device) every move is one's own: no "your move".
      const yours = mine && held.length === 1 && held[0] === g.turn;
      status = h(
        'span',
        { class: yours ? 'turn yours' : 'turn' },
        ` ${t('game.toMove', { side: sideLabel(g.turn) })}`,
        yours ? ` · ${t('list.yourTurn')}` : '',
      );
    }
    return h(
      'li',
      {},
      h(
        'a',
        { href: `/game/${g.id}`, 'data-link': '' },
        h('strong', {}, `${t(`game.${g.game}`)}${variant}`),
        h('span', {}, ` ${t('list.vs', { a: names[0], b: names[1] })} · ${t('list.plies', { n: g.plies })}`),
        status,
      ),
    );
  }

  function drawImport() {
    let game = 'chess';
    const gameSelect = select(
      'import-game',
      games().map((g) => [g.id, t(`game.${g.id}`)]),
      game,
      (v) => {
        game = v;
        variantBox.replaceChildren(...variantField());
      },
    );
    let variant = null;
    const variantBox = h('div');
    const variantField = () => {
      const info = games().find((g) => g.id === game);
      variant = info ? info.default_variant : null;
      if (!info || info.variants.length < 2) return [];
      return [
        field(
          t('lobby.variant'),
          select(
            'import-variant',
            info.variants.map((v) => [v.id, t(`variant.${v.id}`)]),
            variant,
            (v) => (variant = v),
          ),
        ),
      ];
    };
    variantBox.append(...variantField());
    const text = h('textarea', { id: 'import-text', rows: 5, spellcheck: 'false' });
    const file = h('input', { id: 'import-file', type: 'file', accept: '.pgn,.pdn,.txt,text/plain' });
    file.addEventListener('change', async () => {
      const chosen = file.files?.[0];
      if (chosen) text.value = await chosen.text();
    });
    const error = h('p', { class: 'error', role: 'alert' });
    const submit = h('button', { type: 'submit' }, t('import.submit'));
    const el = h(
      'form',
      {},
      h('h2', { id: 'import-heading' }, t('lobby.import')),
      field(t('lobby.game'), gameSelect),
      variantBox,
      field(t('import.text'), text),
      field(t('import.file'), file),
      error,
      submit,
    );
    el.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const created = await api.importGame({ game, variant, text: text.value, mode: 'hotseat' });
        saveSeats(created.id, created.seats);
        navigate(`/game/${created.id}`);
      } catch (e) {
        error.textContent = t('error.prefix', { message: errorText(e) });
      }
    });
    mount(importBox, el);
  }
}

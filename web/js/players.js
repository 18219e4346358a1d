// The players page: the registry (search, delete with a confirmation), the import of
// a `Name_Won_Lost;` player file (pasted or chosen; a refused file changes nothing and
// shows the server's reason) and the standings per game kind with Glicko-2 ratings.
import * as api from './api.js';
import { h, mount } from './dom.js';
import { errorText, t } from './i18n.js';
import { games } from './common.js';

const ADMIN_KEY = 'tablero.adminToken';

/** The administrator's token typed on this tab, if any. */
function adminToken() {
  return sessionStorage.getItem(ADMIN_KEY) || '';
}

// What the page keeps between renders (a language change redraws it).
const view = { search: '', game: '', text: '', confirm: null };

/** "1523 ± 87", or a dash for a kind not rated yet. */
function ratingText(rating) {
  if (!rating) return '—';
  return `${Math.round(rating.rating)} ± ${Math.round(rating.deviation)}`;
}

const gameName = (id) => t(`game.${id}`);

export function playersPage(root) {
  const list = h('section', { class: 'card players-list', 'aria-labelledby': 'players-heading' });
  const importBox = h('section', { class: 'card players-import', 'aria-labelledby': 'players-import-heading' });
  const table = h('section', { class: 'card standings', 'aria-labelledby': 'standings-heading' });
  mount(
    root,
    h(
      'div',
      { class: 'lobby players-page' },
      h('div', { class: 'col' }, list),
      h('div', { class: 'col' }, importBox, table),
    ),
  );
  // Counts list requests, so that an older answer never replaces a newer one.
  let listRequest = 0;
  drawImport();
  refresh();

  function refresh() {
    drawList();
    drawStandings();
  }

  function numberCell(value) {
    return h('td', { class: 'num' }, String(value));
  }

  async function drawList() {
    const search = h('input', {
      id: 'player-search',
      type: 'search',
      value: view.search,
      autocomplete: 'off',
      spellcheck: 'false',
    });
    const body = h('div', { class: 'players-body', 'aria-live': 'polite' });
    let timer = null;
    search.addEventListener('input', () => {
      view.search = search.value;
      clearTimeout(timer);
      timer = setTimeout(() => fillList(body), 200);
    });
    mount(
      list,
      h('h1', { id: 'players-heading' }, t('players.heading')),
      h('div', { class: 'field' }, h('label', { for: 'player-search' }, t('players.search')), search),
      body,
    );
    await fillList(body);
  }

  async function fillList(body) {
    const mine = ++listRequest;
    let data;
    try {
      data = await api.players(view.search.trim());
      // A newer search (or a deletion) answered after this one: keep its list.
      if (mine !== listRequest) return;
    } catch (e) {
      mount(body, h('p', { class: 'error', role: 'alert' }, t('error.prefix', { message: errorText(e) })));
      return;
    }
    if (!data.players.length) {
      mount(body, h('p', { class: 'empty' }, view.search.trim() ? t('players.noMatch') : t('players.none')));
      return;
    }
    const rows = data.players.map((p) => {
      const ratings = Object.entries(p.ratings || {}).map(([game, r]) => `${gameName(game)} ${ratingText(r)}`);
      const kinds = Object.entries(p.stats || {}).map(([game, c]) => `${gameName(game)} ${c.won}/${c.lost}/${c.drawn}`);
      const imported = p.imported ? t('players.importedCounts', { won: p.imported.won, lost: p.imported.lost }) : '';
      const details = [...kinds, imported].filter(Boolean).join(' · ');
      let action;
      if (view.confirm === p.name) {
        action = h(
          'div',
          { class: 'confirm' },
          h(
            'button',
            { class: 'danger', 'data-confirm-delete': p.name, onclick: () => remove(p.name, body) },
            t('players.confirmDelete', { name: p.name }),
          ),
          h(
            'button',
            {
              class: 'secondary',
              onclick: () => {
                view.confirm = null;
                fillList(body);
              },
            },
            t('btn.cancel'),
          ),
        );
      } else {
        action = h(
          'button',
          {
            class: 'secondary',
            'data-delete': p.name,
            'aria-label': t('players.deleteLabel', { name: p.name }),
            onclick: () => {
              view.confirm = p.name;
              fillList(body);
            },
          },
          t('players.delete'),
        );
      }
      return h(
        'tr',
        { 'data-player': p.name },
        numberCell(p.number),
        h('th', { scope: 'row' }, p.name, details ? h('small', { class: 'details' }, details) : null),
        numberCell(p.total.won),
        numberCell(p.total.lost),
        numberCell(p.total.drawn),
        h('td', { class: 'ratings' }, ratings.length ? ratings.join(' · ') : '—'),
        h('td', {}, action),
      );
    });
    mount(
      body,
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data', id: 'players-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col', class: 'num' }, '#'),
              h('th', { scope: 'col' }, t('players.name')),
              h('th', { scope: 'col', class: 'num' }, t('players.won')),
              h('th', { scope: 'col', class: 'num' }, t('players.lost')),
              h('th', { scope: 'col', class: 'num' }, t('players.drawn')),
              h('th', { scope: 'col' }, t('players.ratings')),
              h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('players.actions'))),
            ),
          ),
          h('tbody', {}, rows),
        ),
      ),
      h('p', { class: 'hint' }, t('players.countsHint')),
    );
    const confirm = body.querySelector('[data-confirm-delete]');
    if (confirm) confirm.focus();
  }

  async function remove(name, body) {
    view.confirm = null;
    try {
      await api.deletePlayer(name, adminToken());
    } catch (e) {
      mount(body, h('p', { class: 'error', role: 'alert' }, t('error.prefix', { message: errorText(e) })));
      return;
    }
    refresh();
  }

  function drawImport() {
    const text = h('textarea', {
      id: 'players-text',
      rows: 5,
      spellcheck: 'false',
      placeholder: 'juanca77_10_4; amaya92_12_1;',
    });
    text.value = view.text;
    text.addEventListener('input', () => (view.text = text.value));
    const file = h('input', { id: 'players-file', type: 'file', accept: '.txt,text/plain' });
    file.addEventListener('change', async () => {
      const chosen = file.files?.[0];
      if (chosen) {
        text.value = await chosen.text();
        view.text = text.value;
      }
    });
    // Kept for this tab only: a server secret does not belong in localStorage.
    const admin = h('input', { type: 'password', id: 'players-admin-token', autocomplete: 'off' });
    admin.value = adminToken();
    admin.addEventListener('input', () => sessionStorage.setItem(ADMIN_KEY, admin.value.trim()));
    const error = h('p', { class: 'error', role: 'alert', id: 'players-error' });
    const done = h('p', { class: 'done', role: 'status', id: 'players-done' });
    const submit = h('button', { type: 'submit', id: 'players-import' }, t('players.import'));
    const form = h(
      'form',
      {},
      h('h2', { id: 'players-import-heading' }, t('players.importHeading')),
      h('p', { class: 'hint' }, t('players.importHelp')),
      h('div', { class: 'field' }, h('label', { for: 'players-text' }, t('players.importText')), text),
      h('div', { class: 'field' }, h('label', { for: 'players-file' }, t('import.file')), file),
      h('div', { class: 'field' }, h('label', { for: 'players-admin-token' }, t('players.adminToken')), admin),
      h('p', { class: 'hint' }, t('players.adminHelp')),
      error,
      done,
      submit,
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.textContent = '';
      done.textContent = '';
      submit.disabled = true;
      try {
        const result = await api.importPlayers(text.value, adminToken());
        done.textContent = t('players.imported', {
          records: result.records,
          added: result.added.length,
          updated: result.updated.length,
        });
        refresh();
      } catch (e) {
        error.textContent = t('error.prefix', { message: errorText(e) });
      } finally {
        submit.disabled = false;
      }
    });
    mount(importBox, form);
  }

  async function drawStandings() {
    const choices = [['', t('players.allGames')], ...games().map((g) => [g.id, gameName(g.id)])];
    const select = h(
      'select',
      { id: 'standings-game' },
      choices.map(([id, label]) => h('option', { value: id, selected: id === view.game }, label)),
    );
    select.addEventListener('change', () => {
      view.game = select.value;
      drawStandings();
    });
    const body = h('div', { class: 'standings-body' });
    mount(
      table,
      h('h2', { id: 'standings-heading' }, t('players.standings')),
      h('div', { class: 'field' }, h('label', { for: 'standings-game' }, t('lobby.game')), select),
      body,
    );
    let data;
    try {
      data = await api.standings(view.game);
    } catch (e) {
      mount(body, h('p', { class: 'error', role: 'alert' }, t('error.prefix', { message: errorText(e) })));
      return;
    }
    if (!data.standings.length) {
      mount(
        body,
        h(
          'p',
          { class: 'empty' },
          view.game ? t('players.noneOfGame', { game: gameName(view.game) }) : t('players.none'),
        ),
      );
      return;
    }
    const ratingCell = (row) => {
      if (view.game) return h('td', { class: 'num rating' }, ratingText(row.rating));
      const all = Object.entries(row.ratings || {}).map(([game, r]) => `${gameName(game)} ${ratingText(r)}`);
      return h('td', { class: 'ratings' }, all.length ? all.join(' · ') : '—');
    };
    mount(
      body,
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data', id: 'standings-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col', class: 'num' }, t('players.place')),
              h('th', { scope: 'col' }, t('players.name')),
              h('th', { scope: 'col', class: 'num' }, t('players.won')),
              h('th', { scope: 'col', class: 'num' }, t('players.lost')),
              h('th', { scope: 'col', class: 'num' }, t('players.drawn')),
              h(
                'th',
                { scope: 'col', class: view.game ? 'num' : '' },
                view.game ? t('players.rating') : t('players.ratings'),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            data.standings.map((row) =>
              h(
                'tr',
                {},
                numberCell(row.place),
                h('th', { scope: 'row' }, row.name),
                numberCell(row.won),
                numberCell(row.lost),
                numberCell(row.drawn),
                ratingCell(row),
              ),
            ),
          ),
        ),
      ),
      h('p', { class: 'hint' }, view.game ? t('players.ratingHint') : t('players.allHint')),
    );
  }
}

// The game page: the board, the players and clocks, the move list with review, the
// move box, the buttons, offers and the game-over banner; live over the WebSocket.
import * as api from './api.js';
import { attachPointer, drawBoard, neighbour, pieceDrawing, same, spotName } from './board.js';
import { h, mount, s } from './dom.js';
import { errorText, lang, onLangChange, t } from './i18n.js';
import { chessPiece } from './pieces.js';
import { play as playSound } from './sound.js';
import { announce, reasonText, seatsOf, sideLabel, sidesOf } from './common.js';

const last = (list) => list[list.length - 1];
const pathKey = (m) => `${m.path.map((p) => p.join(',')).join(';')}|${m.captures.map((p) => p.join(',')).join(';')}`;

export function gamePage(root, id) {
  const g = {
    id,
    state: null,
    seats: seatsOf(id),
    flip: false,
    autoflip: localStorage.getItem('tablero.autoflip') === 'on',
    xiangqiStyle: localStorage.getItem('tablero.xiangqiPieces') || 'chinese',
    // Chinese move notation: the saved choice, else on when the page is in Chinese.
    chineseNotation: localStorage.getItem('tablero.xiangqiNotation')
      ? localStorage.getItem('tablero.xiangqiNotation') === 'chinese'
      : lang() === 'zh-CN',
    focus: null,
    startBoard: null,
    selected: null,
    clicks: [],
    choice: null,
    review: null,
    message: '',
    connected: true,
    receivedAt: 0,
    confirmResign: false,
  };

  // The parts that stay while the state changes (the move box keeps its text).
  const boards = h('div', { class: 'boards' });
  const boardKeys = h('p', { id: 'board-keys', class: 'sr-only' });
  const top = h('div', { class: 'player top' });
  const bottom = h('div', { class: 'player bottom' });
  const banner = h('div', { class: 'banner', role: 'status', hidden: true });
  const choiceBox = h('div', { class: 'choice', hidden: true });
  const overlay = h('div', { class: 'overlay', hidden: true });
  const status = h('p', { class: 'status', 'aria-live': 'polite' });
  const offers = h('div', { class: 'offers' });
  const message = h('p', { class: 'message', role: 'alert' });
  const input = h('input', { id: 'move-input', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off' });
  const inputLabel = h('label', { for: 'move-input' });
  const submit = h('button', { type: 'submit' });
  const form = h('form', { class: 'move-form' }, inputLabel, h('div', { class: 'row' }, input, submit));
  const movesHeading = h('h2', { id: 'moves-heading' });
  const moveList = h('ol', { class: 'move-list', 'aria-labelledby': 'moves-heading' });
  const nav = h('div', { class: 'review-nav' });
  const reviewNote = h('p', { class: 'review-note' });
  const actions = h('div', { class: 'actions' });
  const settings = h('div', { class: 'settings' });

  const panel = h(
    'aside',
    { class: 'panel' },
    h('div', { class: 'panel-part' }, status, offers, message, form),
    h('div', { class: 'panel-part' }, movesHeading, reviewNote, moveList, nav),
    h('div', { class: 'panel-part' }, actions, settings),
  );
  const area = h('div', { class: 'board-area' }, banner, top, choiceBox, boards, boardKeys, bottom);
  const section = h('section', { class: 'game' }, area, panel, overlay);
  mount(root, section, h('p', { class: 'loading' }, t('game.loading')));
  root.querySelector('.loading').remove();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    sendMove(text).then((ok) => {
      if (ok) input.value = '';
    });
  });

  document.addEventListener('keydown', onKey);
  function onKey(event) {
    if (!g.state || event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (event.target instanceof Element && event.target.closest('[data-spot]')) return;
    const total = g.state.moves.length;
    const ply = g.review ? g.review.ply : total;
    if (event.key === 'ArrowLeft') review(Math.max(0, ply - 1));
    else if (event.key === 'ArrowRight') review(Math.min(total, ply + 1));
    else if (event.key === 'Escape') {
      closeOverlay();
      g.selected = null;
      g.clicks = [];
      g.choice = null;
      render();
    }
  }

  // The keyboard on the board: the arrows move the focus over the squares, Enter or
  // Space presses the focused one (select, then play), Page Up/Down change level.
  const KEYS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
  boards.addEventListener('keydown', (event) => {
    const hit = event.target instanceof Element && event.target.closest('[data-spot]');
    if (!hit || !g.state) return;
    const spot = hit.getAttribute('data-spot').split(',').map(Number);
    const board = (g.review || g.state).board;
    let next = null;
    if (KEYS[event.key]) {
      next = neighbour(spot, KEYS[event.key], board, flipped());
    } else if ((event.key === 'PageUp' || event.key === 'PageDown') && board.levels > 1) {
      const level = Math.min(board.levels - 1, Math.max(0, spot[0] + (event.key === 'PageUp' ? 1 : -1)));
      next = [level, spot[1], spot[2]];
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      g.focus = spot;
      press(spot);
      return;
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    g.focus = next;
    for (const el of boards.querySelectorAll('[data-spot][tabindex="0"]')) el.setAttribute('tabindex', '-1');
    const target = boards.querySelector(`[data-spot="${next.join(',')}"]`);
    if (target) {
      target.setAttribute('tabindex', '0');
      target.focus();
    }
  });

  attachPointer(boards, {
    press,
    drop: (from, to) => {
      if (!same(g.selected, from)) press(from);
      press(to);
    },
    canDrag: (spot) => canMove() && movesFrom(spot).length > 0,
  });

  // --- state -----------------------------------------------------------------

  const stop = api.watch(
    id,
    (state) => apply(state),
    (ok) => {
      g.connected = ok;
      renderStatus();
    },
  );
  api.gameState(id).then(apply, (error) => {
    mount(root, h('p', { class: 'error' }, error.status === 404 ? t('game.notFound') : errorText(error)));
    stop();
  });
  // The start position: what was captured is what is missing from it.
  api.positionAt(id, 0).then(
    (view) => {
      g.startBoard = view.board;
      render();
    },
    () => {},
  );

  function apply(state) {
    const old = g.state;
    if (old && state.version < old.version) return;
    g.state = state;
    g.receivedAt = performance.now();
    if (!old || state.version !== old.version) {
      g.selected = null;
      g.clicks = [];
      g.choice = null;
      closeOverlay();
    }
    if (old && state.moves.length > old.moves.length) {
      const m = last(state.moves);
      const mover = state.moves.length % 2 === 1 ? firstMover(state) : otherSide(firstMover(state));
      const said = state.game === 'xiangqi' && g.chineseNotation && m.notation_zh ? m.notation_zh : m.notation;
      announce(t('announce.move', { side: sideLabel(mover), move: said }));
      playSound(state.last_move?.captures.length ? 'capture' : 'move');
      if (g.review && g.review.ply === old.moves.length) g.review = null;
    }
    if (old && !old.outcome && state.outcome) {
      announce(t('announce.over', { text: outcomeText(state) }));
      playSound('end');
    }
    if (g.review && g.review.ply > state.moves.length) g.review = null;
    render();
  }

  // --- sides and seats -------------------------------------------------------

  const sides = () => sidesOf(g.state.game);
  const otherSide = (side) => sides().find((x) => x !== side);
  // The side that made the first move: the side to move now, counted back.
  function firstMover(state) {
    return state.moves.length % 2 === 0 ? state.turn : otherSide(state.turn);
  }
  const mySides = () => Object.keys(g.seats).filter((side) => sides().includes(side));
  const tokenFor = (side) => g.seats[side];
  // The side that acts for this page: the side to move if it is ours, else our seat.
  function actingSide() {
    if (tokenFor(g.state.turn)) return g.state.turn;
    return mySides()[0] || null;
  }
  const canMove = () => g.state && g.state.status === 'playing' && !g.review && !!tokenFor(g.state.turn);

  function flipped() {
    const [first, second] = sides();
    let bottomSide = first;
    const mine = mySides();
    if (g.state.mode === 'hotseat') {
      if (g.autoflip) bottomSide = g.state.turn;
    } else if (mine.length === 1) {
      bottomSide = mine[0];
    }
    return (bottomSide === second) !== g.flip;
  }

  // --- playing ---------------------------------------------------------------

  const movesFrom = (spot) => g.state.legal_moves.filter((m) => same(m.path[0], spot));

  function press(spot) {
    g.focus = spot;
    if (!canMove()) return;
    if (g.choice) {
      const left = g.choice.filter((m) => m.path.slice(1, -1).some((p) => same(p, spot)));
      if (left.length === 1) return playHint(left[0]);
      if (left.length > 1) {
        g.choice = left;
        return render();
      }
      g.choice = null;
    }
    if (g.selected) {
      const clicks = [...g.clicks, spot];
      const matches = movesFrom(g.selected).filter((m) => clicks.every((c) => m.path.slice(1).some((p) => same(p, c))));
      if (matches.length) {
        const ending = matches.filter((m) => same(last(m.path), spot));
        if (ending.length) {
          const distinct = [...new Map(ending.map((m) => [pathKey(m), m])).values()];
          if (distinct.length === 1) {
            if (ending.some((m) => m.promotion)) return choosePromotion(ending);
            return playHint(ending[0]);
          }
          g.clicks = clicks;
          g.choice = distinct;
          return render();
        }
        if (matches.length === 1) return playHint(matches[0]);
        g.clicks = clicks;
        return render();
      }
    }
    g.clicks = [];
    g.selected = !same(g.selected, spot) && movesFrom(spot).length ? spot : null;
    render();
  }

  function playHint(hint) {
    g.selected = null;
    g.clicks = [];
    g.choice = null;
    closeOverlay();
    sendMove(hint.move);
  }

  async function sendMove(text) {
    if (g.state?.status !== 'playing') return false;
    const token = tokenFor(g.state.turn);
    if (!token) return false;
    try {
      const state = await api.playMove(g.id, token, text);
      g.message = '';
      apply(state);
      return true;
    } catch (error) {
      g.message = t('error.prefix', { message: errorText(error) });
      render();
      return false;
    }
  }

  async function act(action) {
    const side = actingSide();
    if (!side) return;
    try {
      const state = await api.act(g.id, tokenFor(side), action);
      g.message = '';
      g.confirmResign = false;
      apply(state);
    } catch (error) {
      g.message = t('error.prefix', { message: errorText(error) });
      render();
    }
  }

  // An offer or request of the opponent is answered by the other seat.
  async function answer(action, fromSide) {
    const side = otherSide(fromSide);
    const token = tokenFor(side);
    if (!token) return;
    try {
      apply(await api.act(g.id, token, action));
    } catch (error) {
      g.message = t('error.prefix', { message: errorText(error) });
      render();
    }
  }

  function choosePromotion(moves) {
    const buttons = ['q', 'r', 'b', 'n']
      .map((kind) => moves.find((m) => m.promotion === kind))
      .filter(Boolean)
      .map((m) =>
        h(
          'button',
          {
            class: 'promo',
            'data-promotion': m.promotion,
            'aria-label': t(`piece.${m.promotion}`),
            onclick: () => playHint(m),
          },
          s('svg', { viewBox: '0 0 100 100', 'aria-hidden': 'true' }, chessPiece(m.promotion, g.state.turn)),
        ),
      );
    openOverlay(t('promo.title'), h('div', { class: 'promo-row' }, buttons));
    buttons[0]?.focus();
  }

  function openOverlay(title, body) {
    mount(
      overlay,
      h(
        'div',
        { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': title },
        h('h2', {}, title),
        body,
        h(
          'button',
          {
            class: 'secondary',
            onclick: () => {
              closeOverlay();
              g.selected = null;
              render();
            },
          },
          t('btn.cancel'),
        ),
      ),
    );
    overlay.hidden = false;
  }

  function closeOverlay() {
    overlay.hidden = true;
    overlay.replaceChildren();
  }

  // --- review ----------------------------------------------------------------

  async function review(ply) {
    if (!g.state) return;
    if (ply >= g.state.moves.length) {
      g.review = null;
      return render();
    }
    try {
      const view = await api.positionAt(g.id, ply);
      g.review = view;
      g.selected = null;
      render();
    } catch (error) {
      g.message = errorText(error);
      render();
    }
  }

  // --- drawing ---------------------------------------------------------------

  function outcomeText(state) {
    return reasonText(state.outcome, sides());
  }

  const pieceName = (kind) => t(`piece.${g.state.game}.${kind}`);

  // "e4, White pawn", "e5, legal move", for screen readers.
  function describeSpot(spot, piece, { selected, target }) {
    const square = spotName((g.review || g.state).board, spot);
    let text = piece
      ? t('square.piece', { square, side: sideLabel(piece.side), piece: pieceName(piece.kind) })
      : square;
    if (selected) text += `, ${t('square.selected')}`;
    if (target) text += `, ${t('square.target')}`;
    return text;
  }

  // The pieces each side has lost since the start position: {side: [kind, ...]},
  // the most valuable first. A chess pawn that promoted was not captured.
  const VALUE_ORDER = { chess: 'qrbnp', chess3d: 'dtacp', xiangqi: 'rncbap', draughts: 'km' };
  function capturedPieces(board) {
    const count = (b) => {
      const c = {};
      for (const p of b.pieces) {
        const kind = g.state.game === 'draughts' ? 'm' : p.kind;
        c[p.side] = c[p.side] || {};
        c[p.side][kind] = (c[p.side][kind] || 0) + 1;
      }
      return c;
    };
    const before = count(g.startBoard);
    const now = count(board);
    const order = VALUE_ORDER[g.state.game] || '';
    const out = {};
    for (const side of sides()) {
      const a = before[side] || {};
      const b = now[side] || {};
      const missing = {};
      let promoted = 0;
      for (const kind of order) {
        missing[kind] = Math.max(0, (a[kind] || 0) - (b[kind] || 0));
        if (kind !== 'p') promoted += Math.max(0, (b[kind] || 0) - (a[kind] || 0));
      }
      if (g.state.game === 'chess' || g.state.game === 'chess3d') missing.p = Math.max(0, (missing.p || 0) - promoted);
      out[side] = [...order].flatMap((kind) => Array(missing[kind] || 0).fill(kind));
    }
    return out;
  }

  function render() {
    const state = g.state;
    if (!state) return;
    const board = g.review ? g.review.board : state.board;
    const lastMove = g.review ? g.review.last_move : state.last_move;
    const isFlipped = flipped();
    let targets = [];
    let marks = [];
    if (g.selected) {
      const from = movesFrom(g.selected).filter((m) => g.clicks.every((c) => m.path.slice(1).some((p) => same(p, c))));
      targets = from.map((m) => last(m.path));
    }
    if (g.choice) {
      const counts = new Map();
      for (const m of g.choice) for (const p of m.path.slice(1, -1)) counts.set(p.join(','), p);
      marks = [...counts.values()].filter((p) => !g.choice.every((m) => m.path.some((q) => same(p, q))));
    }
    const gameName = t(`game.${state.game}`);
    const bottomSide = isFlipped ? sides()[1] : sides()[0];
    const svgs = drawBoard({
      game: state.game,
      board,
      flipped: isFlipped,
      xiangqiStyle: g.xiangqiStyle,
      selected: g.selected,
      focus: focusSpot(board, isFlipped),
      targets,
      marks,
      last: lastMove,
      label: t('board.label', { game: gameName, side: sideLabel(bottomSide) }),
      levelLabel: (n) => t('level.label', { n }),
      describe: describeSpot,
    });
    boards.className = `boards boards-${state.game}${canMove() ? ' playable' : ''}`;
    section.className = `game game-${state.game}`;
    boardKeys.textContent = t('board.keys');
    for (const svg of svgs) svg.setAttribute('aria-describedby', 'board-keys');
    const hadFocus = boards.contains(document.activeElement);
    if (svgs.length > 1) {
      const order = isFlipped ? [...svgs.keys()].reverse() : [...svgs.keys()];
      mount(
        boards,
        order.map((i) => h('figure', { class: 'level' }, h('figcaption', {}, t('level.label', { n: i })), svgs[i])),
      );
    } else {
      mount(boards, svgs);
    }
    if (hadFocus) boards.querySelector('[data-spot][tabindex="0"]')?.focus();

    renderPlayers(isFlipped, board);
    renderStatus();
    renderMoves();
    renderActions();

    if (state.outcome) {
      banner.hidden = false;
      const title = state.outcome.winner ? t('over.wins', { side: sideLabel(state.outcome.winner) }) : t('over.draw');
      mount(
        banner,
        h('strong', {}, `${t('over.title')} · ${title} (${state.outcome.result})`),
        h('span', {}, outcomeText(state)),
      );
    } else {
      banner.hidden = true;
    }

    // Several capture paths end on the clicked square: the board stays clickable
    // (a square of the path chooses), or a button does.
    if (g.choice) {
      mount(
        choiceBox,
        h('p', {}, t('path.title')),
        h(
          'div',
          { class: 'path-row' },
          g.choice.map((m) =>
            h(
              'button',
              { class: 'path-option', 'data-move': m.move, onclick: () => playHint(m) },
              m.path.map((p) => spotName(state.board, p)).join(m.captures.length ? '×' : '-'),
            ),
          ),
          h(
            'button',
            {
              class: 'secondary',
              onclick: () => {
                g.choice = null;
                g.selected = null;
                g.clicks = [];
                render();
              },
            },
            t('btn.cancel'),
          ),
        ),
      );
      choiceBox.hidden = false;
    } else {
      choiceBox.hidden = true;
      choiceBox.replaceChildren();
    }
    message.textContent = g.message;
    inputLabel.textContent = t('input.label');
    input.placeholder = t(`input.hint.${state.game}`);
    submit.textContent = t('input.submit');
    input.disabled = !canMove();
    submit.disabled = !canMove();
  }

  // The spot in the tab order: the last one pressed or moved to, else the bottom-left
  // corner as the player sees the board.
  function focusSpot(board, isFlipped) {
    const f = g.focus;
    if (f && f[0] < board.levels && f[1] < board.width && f[2] < board.height) return f;
    return isFlipped ? [board.levels - 1, board.width - 1, board.height - 1] : [0, 0, 0];
  }

  // The pieces `side` has taken, small, with their names for screen readers.
  function capturedStrip(side, taken) {
    const other = otherSide(side);
    if (!taken.length) return h('span', { class: 'captured', 'data-side': side });
    const draughts = g.state.game === 'draughts';
    const names = taken.map(pieceName);
    const icons = (draughts ? taken.slice(0, 1) : taken).map((kind) =>
      s(
        'svg',
        { viewBox: '0 0 100 100', class: `captured-piece captured-${kind}`, 'aria-hidden': 'true' },
        pieceDrawing(g.state.game, { kind, side: other }, g.xiangqiStyle),
      ),
    );
    return h(
      'span',
      {
        class: 'captured',
        'data-side': side,
        role: 'img',
        'aria-label': t('captured.label', { pieces: draughts ? String(taken.length) : names.join(', ') }),
      },
      icons,
      draughts ? h('span', { class: 'captured-count', 'aria-hidden': 'true' }, `×${taken.length}`) : null,
    );
  }

  function renderPlayers(isFlipped, board) {
    const [first, second] = sides();
    const lost = g.startBoard ? capturedPieces(board) : null;
    const fill = (el, side) => {
      const player = g.state.players[side] || {};
      const name = player.computer ? t('player.computer', { level: player.computer }) : player.name || sideLabel(side);
      const clock = h('span', { class: 'clock', 'data-side': side, role: 'timer', 'aria-label': sideLabel(side) });
      mount(
        el,
        h('span', { class: `swatch ${g.state.game}-${side}`, 'aria-hidden': 'true' }),
        h('span', { class: 'name' }, player.name || player.computer ? `${name} (${sideLabel(side)})` : name),
        lost ? capturedStrip(side, lost[otherSide(side)]) : null,
        g.state.clock ? clock : null,
      );
      el.classList.toggle('to-move', g.state.status === 'playing' && g.state.turn === side);
    };
    fill(top, isFlipped ? first : second);
    fill(bottom, isFlipped ? second : first);
    tick();
  }

  function renderStatus() {
    const state = g.state;
    if (!state) return;
    const parts = [];
    if (!g.connected) parts.push(t('conn.lost'));
    if (state.status === 'playing') {
      const turn = sideLabel(state.turn);
      const player = state.players[state.turn] || {};
      if (player.computer) parts.push(t('game.thinking'));
      else if (tokenFor(state.turn))
        parts.push(t(state.mode === 'hotseat' ? 'game.toMove' : 'game.yourMove', { side: turn }));
      else if (mySides().length) parts.push(t('game.waiting', { side: turn }));
      else parts.push(t('game.toMove', { side: turn }));
      if (state.board.check) parts.push(t('game.check'));
    }
    if (!mySides().length) parts.push(t('game.spectator'));
    status.textContent = parts.join(' ');

    const items = [];
    const mine = (side) => !!tokenFor(side);
    if (state.draw_offer) {
      items.push(
        h(
          'span',
          {},
          mine(state.draw_offer) && !mine(otherSide(state.draw_offer))
            ? t('offer.drawSent')
            : t('offer.draw', { side: sideLabel(state.draw_offer) }),
        ),
      );
      if (mine(otherSide(state.draw_offer))) {
        items.push(h('button', { onclick: () => answer('draw/accept', state.draw_offer) }, t('btn.accept')));
        items.push(
          h(
            'button',
            { class: 'secondary', onclick: () => answer('draw/decline', state.draw_offer) },
            t('btn.decline'),
          ),
        );
      }
    }
    if (state.takeback_request) {
      items.push(
        h(
          'span',
          {},
          mine(state.takeback_request)
            ? t('offer.takebackSent')
            : t('offer.takeback', { side: sideLabel(state.takeback_request) }),
        ),
      );
      if (mine(otherSide(state.takeback_request))) {
        items.push(h('button', { onclick: () => answer('takeback/accept', state.takeback_request) }, t('btn.accept')));
        items.push(
          h(
            'button',
            { class: 'secondary', onclick: () => answer('takeback/decline', state.takeback_request) },
            t('btn.decline'),
          ),
        );
      }
    }
    mount(offers, items);
  }

  function renderMoves() {
    const state = g.state;
    // A Chess960 game names its start (one of 960), so that it can be set up again.
    movesHeading.textContent =
      state.chess960_start != null
        ? `${t('moves.heading')} · ${t('moves.chess960', { n: state.chess960_start })}`
        : t('moves.heading');
    const current = g.review ? g.review.ply : state.moves.length;
    const chinese = state.game === 'xiangqi' && g.chineseNotation;
    const button = (m, i) =>
      h(
        'button',
        {
          class: `move${i + 1 === current ? ' current' : ''}`,
          'data-ply': i + 1,
          'aria-current': i + 1 === current ? 'true' : null,
          title: chinese ? `${m.notation} · ${m.move}` : m.notation_zh ? `${m.notation_zh} · ${m.move}` : m.move,
          onclick: () => review(i + 1),
        },
        chinese && m.notation_zh ? m.notation_zh : m.notation,
      );
    // One row per move of both sides, numbered, the first mover first.
    const items = [];
    for (let i = 0; i < state.moves.length; i += 2) {
      items.push(
        h(
          'li',
          {},
          h('span', { class: 'number', 'aria-hidden': 'true' }, `${i / 2 + 1}.`),
          button(state.moves[i], i),
          state.moves[i + 1] ? button(state.moves[i + 1], i + 1) : null,
        ),
      );
    }
    mount(moveList, items.length ? items : h('li', { class: 'empty' }, t('moves.none')));
    const currentButton = moveList.querySelector('.current');
    if (currentButton) moveList.scrollTop = currentButton.offsetTop - moveList.clientHeight / 2;
    reviewNote.textContent = g.review
      ? g.review.ply === 0
        ? t('review.start')
        : t('review.label', { n: g.review.ply, total: state.moves.length })
      : '';
    const total = state.moves.length;
    const navButton = (label, icon, ply, disabled) =>
      h(
        'button',
        { class: 'icon', 'aria-label': label, title: label, disabled, onclick: () => review(ply) },
        s(
          'svg',
          { viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true' },
          s('path', { d: icon, fill: 'currentColor' }),
        ),
      );
    mount(
      nav,
      navButton(t('btn.first'), 'M5 5h2v14H5zM19 5v14L8 12z', 0, current === 0),
      navButton(t('btn.prev'), 'M17 5v14L6 12z', Math.max(0, current - 1), current === 0),
      navButton(t('btn.next'), 'M7 5v14l11-7z', Math.min(total, current + 1), current === total),
      navButton(t('btn.last'), 'M17 5h2v14h-2zM5 5v14l11-7z', total, current === total),
    );
  }

  function renderActions() {
    const state = g.state;
    const playing = state.status === 'playing';
    const side = actingSide();
    const items = [
      h(
        'button',
        {
          class: 'secondary',
          onclick: () => {
            g.flip = !g.flip;
            render();
          },
        },
        t('btn.flip'),
      ),
    ];
    if (side && playing) {
      if (state.moves.length)
        items.push(h('button', { class: 'secondary', onclick: () => act('takeback') }, t('btn.takeback')));
      if (state.mode !== 'computer' && !state.draw_offer) {
        items.push(h('button', { class: 'secondary', onclick: () => act('draw/offer') }, t('btn.draw')));
      }
      if (state.claimable_draw && tokenFor(state.turn)) {
        items.push(h('button', { onclick: () => act('draw/claim') }, t('btn.claim')));
      }
      if (g.confirmResign) {
        items.push(h('button', { class: 'danger', onclick: () => act('resign') }, t('btn.confirmResign')));
        items.push(
          h(
            'button',
            {
              class: 'secondary',
              onclick: () => {
                g.confirmResign = false;
                render();
              },
            },
            t('btn.cancel'),
          ),
        );
      } else {
        items.push(
          h(
            'button',
            {
              class: 'secondary',
              onclick: () => {
                g.confirmResign = true;
                render();
              },
            },
            t('btn.resign'),
          ),
        );
      }
    }
    items.push(h('a', { class: 'button secondary', href: api.exportUrl(g.id), download: '' }, t('btn.export')));
    items.push(
      h(
        'a',
        {
          class: 'button secondary',
          id: 'game-reports',
          href: `/reports?kind=board&game_id=${encodeURIComponent(g.id)}`,
          'data-link': '',
        },
        t('btn.reports'),
      ),
    );
    mount(actions, items);

    const options = [];
    if (state.mode === 'hotseat') {
      options.push(
        checkbox('autoflip', t('btn.autoflip'), g.autoflip, (on) => {
          g.autoflip = on;
          localStorage.setItem('tablero.autoflip', on ? 'on' : 'off');
        }),
      );
    }
    if (state.game === 'xiangqi') {
      options.push(
        checkbox('chinese-notation', t('settings.xiangqiChinese'), g.chineseNotation, (on) => {
          g.chineseNotation = on;
          localStorage.setItem('tablero.xiangqiNotation', on ? 'chinese' : 'wxf');
        }),
      );
      const style = h(
        'select',
        { id: 'opt-pieces' },
        ['chinese', 'letters', 'symbols'].map((v) =>
          h('option', { value: v, selected: v === g.xiangqiStyle }, t(`pieces.${v}`)),
        ),
      );
      style.addEventListener('change', () => {
        g.xiangqiStyle = style.value;
        localStorage.setItem('tablero.xiangqiPieces', style.value);
        render();
      });
      options.push(h('label', { class: 'check', for: 'opt-pieces' }, t('settings.xiangqiPieces'), ' ', style));
    }
    mount(settings, options);
  }

  function checkbox(name, label, checked, change) {
    const box = h('input', { type: 'checkbox', id: `opt-${name}`, checked });
    box.addEventListener('change', () => {
      change(box.checked);
      render();
    });
    return h('label', { class: 'check', for: `opt-${name}` }, box, ' ', label);
  }

  // --- clocks ----------------------------------------------------------------

  function format(ms) {
    const total = Math.max(0, ms);
    const minutes = Math.floor(total / 60000);
    const seconds = Math.floor((total % 60000) / 1000);
    const tenths = Math.floor((total % 1000) / 100);
    if (minutes >= 60)
      return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
    return total < 10000 ? `${seconds}.${tenths}` : `${minutes}:${String(seconds).padStart(2, '0')}`;
  }

  function tick() {
    const clock = g.state?.clock;
    if (!clock) return;
    const elapsed = performance.now() - g.receivedAt;
    for (const el of root.querySelectorAll('.clock')) {
      const side = el.getAttribute('data-side');
      const running = clock.running && (clock.kind === 'game' || clock.running === side);
      const left = clock.remaining_ms[side] - (running ? elapsed : 0);
      el.textContent = format(left);
      el.classList.toggle('running', !!running);
      el.classList.toggle('low', left < 10000);
    }
  }
  const timer = setInterval(tick, 100);
  const stopLanguage = onLangChange(render);

  // Leaving the page: the socket, the clock timer and every listener go with it.
  return function unmount() {
    clearInterval(timer);
    stop();
    document.removeEventListener('keydown', onKey);
    stopLanguage();
  };
}

// The game page drawn from its state: the board, the players with their clocks and
// captured pieces, the status and offers, the move list with review, the buttons, the
// game-over banner and the dialogs. Every button calls one of the controller's
// `intents`; nothing here changes the state.
import * as api from '../api.js';
import { drawBoard, pieceDrawing, spotName } from '../board.js';
import { rulesPath, sideLabel } from '../common.js';
import { h, mount, s } from '../dom.js';
import { t } from '../i18n.js';
import { chessPiece } from '../pieces.js';
import {
  actingSide,
  canMove,
  capturedPieces,
  choiceMarks,
  focusSpot,
  forcedMarks,
  isFlipped,
  materialLead,
  mySides,
  notationOf,
  otherSide,
  outcomeText,
  pathMarks,
  premoveMarks,
  shownBoard,
  shownLastMove,
  shownLevel,
  shownPly,
  sides,
  targets,
  tokenFor,
} from './state.js';

/** The page's frame in `root`; its parts stay while the state changes (the move box
 * keeps its text). */
export function createView(root) {
  const boards = h('div', { class: 'boards' });
  const boardKeys = h('p', { id: 'board-keys', class: 'sr-only' });
  const top = h('div', { class: 'player top' });
  const bottom = h('div', { class: 'player bottom' });
  const banner = h('div', { class: 'banner', role: 'status', hidden: true });
  const levelTabs = h('div', { class: 'level-tabs', role: 'tablist' });
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
  const resume = h('div', { class: 'resume' });

  const panel = h(
    'aside',
    { class: 'panel' },
    h('div', { class: 'panel-part' }, status, offers, message, form),
    h('div', { class: 'panel-part' }, movesHeading, reviewNote, moveList, nav),
    h('div', { class: 'panel-part' }, actions, settings, resume),
  );
  const area = h('div', { class: 'board-area' }, banner, top, choiceBox, levelTabs, boards, boardKeys, bottom);
  // The page's one heading names the game; the board shows the rest.
  const title = h('h1', { class: 'sr-only' });
  const section = h('section', { class: 'game' }, title, area, panel, overlay);
  mount(root, section);

  /** Everything, from the state. */
  function render(page, intents) {
    if (!page.state) return;
    title.textContent = t(`game.${page.state.game}`);
    renderBoard(page, intents);
    renderPlayers(page);
    renderStatus(page, intents);
    renderMoves(page, intents);
    renderActions(page, intents);
    renderResume(page);
    renderBanner(page, intents);
    renderChoice(page, intents);
    message.textContent = page.message;
    inputLabel.textContent = t('input.label');
    input.placeholder = t(`input.hint.${page.state.game}`);
    submit.textContent = t('input.submit');
    input.disabled = !canMove(page);
    submit.disabled = !canMove(page);
  }

  function renderBoard(page, intents) {
    const { state } = page;
    const board = shownBoard(page);
    const flipped = isFlipped(page);
    const bottomSide = flipped ? sides(page)[1] : sides(page)[0];
    const svgs = drawBoard({
      game: state.game,
      board,
      flipped,
      xiangqiStyle: page.xiangqiStyle,
      fileNumbers: state.game === 'xiangqi' && page.fileNumbers,
      chess3dStyle: page.chess3dStyle,
      selected: page.selected,
      focus: focusSpot(page, board, flipped),
      targets: targets(page),
      marks: choiceMarks(page),
      forced: forcedMarks(page),
      path: pathMarks(page),
      premove: page.review ? [] : premoveMarks(page),
      annotations: page.annotations,
      last: shownLastMove(page),
      label: t('board.label', { game: t(`game.${state.game}`), side: sideLabel(bottomSide) }),
      levelLabel: (n) => t('level.label', { n }),
      describe: (spot, piece, marks) => describeSpot(page, board, spot, piece, marks),
    });
    boards.className = `boards boards-${state.game}${canMove(page) ? ' playable' : ''}`;
    section.className = `game game-${state.game}`;
    boardKeys.textContent = t('board.keys');
    for (const svg of svgs) svg.setAttribute('aria-describedby', 'board-keys');
    const hadFocus = boards.contains(document.activeElement);
    if (svgs.length > 1) {
      const order = flipped ? [...svgs.keys()].reverse() : [...svgs.keys()];
      const shown = shownLevel(page, board);
      mount(
        boards,
        order.map((i) =>
          h(
            'div',
            {
              class: `level${i === shown ? ' shown' : ''}`,
              id: `level-${i}`,
              role: 'tabpanel',
              'aria-labelledby': `level-${i}-caption`,
            },
            h('div', { class: 'caption', id: `level-${i}-caption` }, t('level.label', { n: i })),
            svgs[i],
          ),
        ),
      );
      renderLevelTabs(page, order, shown, intents);
    } else {
      mount(boards, svgs);
      levelTabs.replaceChildren();
    }
    if (hadFocus) boards.querySelector('[data-spot][tabindex="0"]')?.focus();
  }

  // The phones' level switcher (the stylesheet hides it on wider screens, where the
  // levels stand side by side): the level of the selected piece is marked and each tab
  // counts the selected piece's moves that end on its level, so that a move between
  // levels is two presses and a tab, without scrolling.
  function renderLevelTabs(page, order, shown, intents) {
    const ends = targets(page);
    mount(
      levelTabs,
      order.map((n) => {
        const count = ends.filter((spot) => spot[0] === n).length;
        return h(
          'button',
          {
            type: 'button',
            role: 'tab',
            class: page.selected?.[0] === n ? 'has-selected' : null,
            'data-level': n,
            'aria-selected': n === shown ? 'true' : 'false',
            'aria-controls': `level-${n}`,
            onclick: () => intents.showLevel(n),
          },
          t('level.label', { n }),
          count ? h('span', { class: 'count', 'aria-label': t('level.moves', { n: count }) }, String(count)) : null,
        );
      }),
    );
  }

  function renderPlayers(page) {
    const { state } = page;
    const [first, second] = sides(page);
    const lost = capturedPieces(page, shownBoard(page));
    const lead = materialLead(page, shownBoard(page));
    const fill = (el, side) => {
      const player = state.players[side] || {};
      const name = player.computer ? t('player.computer', { level: player.computer }) : player.name || sideLabel(side);
      const clock = h('span', { class: 'clock', 'data-side': side, role: 'timer', 'aria-label': sideLabel(side) });
      mount(
        el,
        h('span', { class: `swatch ${state.game}-${side}`, 'aria-hidden': 'true' }),
        h('span', { class: 'name' }, player.name || player.computer ? `${name} (${sideLabel(side)})` : name),
        // An empty strip until the start position comes, so that the bar keeps its height.
        lost ? capturedStrip(page, side, lost[otherSide(page, side)]) : h('span', { class: 'captured' }),
        lead[side] > 0
          ? h(
              'span',
              { class: 'material', 'data-side': side, 'aria-label': t('material.ahead', { n: lead[side] }) },
              `+${lead[side]}`,
            )
          : null,
        state.clock ? clock : null,
      );
      el.classList.toggle('to-move', state.status === 'playing' && state.turn === side);
    };
    const flipped = isFlipped(page);
    fill(top, flipped ? first : second);
    fill(bottom, flipped ? second : first);
    tick(page);
  }

  /** Whose turn, the connection, and the opponent's offers with their answers. */
  function renderStatus(page, intents) {
    const { state } = page;
    if (!state) return;
    const parts = [];
    if (!page.connected) parts.push(t('conn.lost'));
    if (state.status === 'playing') {
      const turn = sideLabel(state.turn);
      const player = state.players[state.turn] || {};
      if (player.computer) parts.push(t('game.thinking'));
      else if (tokenFor(page, state.turn))
        parts.push(t(state.mode === 'hotseat' ? 'game.toMove' : 'game.yourMove', { side: turn }));
      else if (mySides(page).length) parts.push(t('game.waiting', { side: turn }));
      else parts.push(t('game.toMove', { side: turn }));
      if (state.board.check) parts.push(t('game.check'));
    }
    if (!mySides(page).length) parts.push(t('game.spectator'));
    status.textContent = parts.join(' ');

    // An offer or request names its side; the other seat, if ours, answers it.
    const mine = (side) => !!tokenFor(page, side);
    const items = [];
    const offer = (fromSide, sentText, text, action) => {
      items.push(h('span', {}, sentText ? t(sentText) : t(text, { side: sideLabel(fromSide) })));
      if (!mine(otherSide(page, fromSide))) return;
      items.push(h('button', { onclick: () => intents.answer(`${action}/accept`, fromSide) }, t('btn.accept')));
      items.push(
        h(
          'button',
          { class: 'secondary', onclick: () => intents.answer(`${action}/decline`, fromSide) },
          t('btn.decline'),
        ),
      );
    };
    if (state.draw_offer) {
      const sent = mine(state.draw_offer) && !mine(otherSide(page, state.draw_offer));
      offer(state.draw_offer, sent ? 'offer.drawSent' : null, 'offer.draw', 'draw');
    }
    if (state.takeback_request) {
      const sent = mine(state.takeback_request);
      offer(state.takeback_request, sent ? 'offer.takebackSent' : null, 'offer.takeback', 'takeback');
    }
    if (page.notice) items.push(h('span', { class: 'notice' }, t(page.notice)));
    mount(offers, items);
  }

  function renderMoves(page, intents) {
    const { state } = page;
    // A Chess960 game names its start (one of 960), so that it can be set up again.
    movesHeading.textContent =
      state.chess960_start != null
        ? `${t('moves.heading')} · ${t('moves.chess960', { n: state.chess960_start })}`
        : t('moves.heading');
    const current = shownPly(page);
    const chinese = state.game === 'xiangqi' && page.chineseNotation;
    const button = (m, i) =>
      h(
        'button',
        {
          class: `move${i + 1 === current ? ' current' : ''}`,
          'data-ply': i + 1,
          'aria-current': i + 1 === current ? 'true' : null,
          title: chinese ? `${m.notation} · ${m.move}` : m.notation_zh ? `${m.notation_zh} · ${m.move}` : m.move,
          onclick: () => intents.review(i + 1),
        },
        notationOf(page, m),
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
    reviewNote.textContent = page.review
      ? page.review.ply === 0
        ? t('review.start')
        : t('review.label', { n: page.review.ply, total: state.moves.length })
      : '';
    const total = state.moves.length;
    const navButton = (label, icon, ply, disabled) =>
      h(
        'button',
        { class: 'icon', 'aria-label': label, title: label, disabled, onclick: () => intents.review(ply) },
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

  function renderActions(page, intents) {
    const { state } = page;
    const button = (label, onclick, cls = 'secondary') => h('button', { class: cls, onclick }, t(label));
    const items = [button('btn.flip', intents.flip)];
    if (actingSide(page) && state.status === 'playing') {
      if (state.moves.length) items.push(button('btn.takeback', () => intents.act('takeback')));
      // Both seats on this device (hot-seat) would only offer a draw to themselves.
      const bothHere = state.mode === 'hotseat' || mySides(page).length > 1;
      if (state.mode !== 'computer' && !bothHere && !state.draw_offer) {
        items.push(button('btn.draw', () => intents.act('draw/offer')));
      }
      if (state.claimable_draw && tokenFor(page, state.turn)) {
        items.push(button('btn.claim', () => intents.act('draw/claim'), null));
      }
      if (page.confirmResign) {
        items.push(button('btn.confirmResign', () => intents.act('resign'), 'danger'));
        items.push(button('btn.cancel', () => intents.confirmResign(false)));
      } else {
        items.push(button('btn.resign', () => intents.confirmResign(true)));
      }
    }
    // The engine's view of a game in progress is for its onlookers, never its players
    // (the server refuses it to a request with a seat's token, which the analysis page
    // sends when this browser holds one).
    if (state.status !== 'playing' || !mySides(page).length) {
      const ply = shownPly(page);
      items.push(
        h(
          'a',
          {
            class: 'button secondary',
            id: 'game-analyse',
            href: `/analysis?id=${encodeURIComponent(page.id)}&ply=${ply}`,
            'data-link': '',
          },
          t('btn.analyse'),
        ),
      );
    }
    items.push(h('a', { class: 'button secondary', href: api.exportUrl(page.id), download: '' }, t('btn.export')));
    items.push(
      h(
        'a',
        {
          class: 'button secondary',
          id: 'game-reports',
          href: `/reports?kind=board&game_id=${encodeURIComponent(page.id)}`,
          'data-link': '',
        },
        t('btn.reports'),
      ),
    );
    mount(actions, items);

    const options = [];
    if (state.mode === 'hotseat') {
      options.push(checkbox('autoflip', t('btn.autoflip'), page.autoflip, intents.setAutoflip));
    }
    if (state.game === 'xiangqi') {
      options.push(
        checkbox('chinese-notation', t('settings.xiangqiChinese'), page.chineseNotation, intents.setChineseNotation),
      );
      options.push(checkbox('file-numbers', t('settings.xiangqiFiles'), page.fileNumbers, intents.setFileNumbers));
      const style = h(
        'select',
        { id: 'opt-pieces' },
        ['chinese', 'letters', 'symbols'].map((v) =>
          h('option', { value: v, selected: v === page.xiangqiStyle }, t(`pieces.${v}`)),
        ),
      );
      style.addEventListener('change', () => intents.setXiangqiStyle(style.value));
      options.push(h('label', { class: 'check', for: 'opt-pieces' }, t('settings.xiangqiPieces'), ' ', style));
    }
    if (state.game === 'chess3d') {
      const style = h(
        'select',
        { id: 'opt-pieces3d' },
        ['moves', 'chess'].map((v) => h('option', { value: v, selected: v === page.chess3dStyle }, t(`pieces3d.${v}`))),
      );
      style.addEventListener('change', () => intents.setChess3dStyle(style.value));
      options.push(h('label', { class: 'check', for: 'opt-pieces3d' }, t('settings.pieces'), ' ', style));
    }
    options.push(
      h(
        'a',
        { href: rulesPath(state.game, state.variant), 'data-link': '', id: 'game-rules' },
        t('nav.rules', { game: t(`game.${state.game}`) }),
      ),
    );
    mount(settings, options);
  }

  // The links that carry this device's seats to another one: the address of an
  // invitation, which app.js takes in, for each seat held while the game goes on.
  function renderResume(page) {
    const { state } = page;
    const held = state.status === 'playing' ? mySides(page) : [];
    if (!held.length) {
      resume.replaceChildren();
      return;
    }
    const open = resume.querySelector('details')?.open;
    const links = held.map((side) => {
      const url = `${location.origin}/game/${page.id}#seat=${encodeURIComponent(tokenFor(page, side))}&side=${side}`;
      const id = `resume-${side}`;
      const field = h('input', { id, class: 'resume-link', readonly: true, value: url, 'data-side': side });
      const copy = h('button', { type: 'button', class: 'secondary' }, t('btn.copy'));
      copy.addEventListener('click', async () => {
        field.select();
        try {
          await navigator.clipboard.writeText(url);
          copy.textContent = t('resume.copied');
        } catch {
          // No clipboard here (an insecure page, or refused): the text stays selected.
        }
      });
      return h(
        'div',
        { class: 'resume-item' },
        h('label', { for: id }, t('resume.label', { side: sideLabel(side) })),
        h('div', { class: 'row' }, field, copy),
      );
    });
    mount(
      resume,
      h(
        'details',
        { open: open || null },
        h('summary', {}, t('resume.title')),
        h('p', { class: 'hint' }, t('resume.private')),
        links,
      ),
    );
  }

  function renderBanner(page, intents) {
    const { outcome } = page.state;
    banner.hidden = !outcome || page.bannerClosed;
    if (!outcome) return;
    const title = outcome.winner ? t('over.wins', { side: sideLabel(outcome.winner) }) : t('over.draw');
    mount(
      banner,
      h(
        'div',
        { class: 'banner-text' },
        h('strong', {}, `${t('over.title')} · ${title} (${outcome.result})`),
        h('span', {}, outcomeText(page)),
      ),
      h('button', { type: 'button', class: 'close', 'aria-label': t('btn.close'), onclick: intents.closeBanner }, '×'),
    );
  }

  // Several capture paths end on the pressed square: the board stays pressable (a
  // square of one path chooses it), or a button does.
  function renderChoice(page, intents) {
    choiceBox.hidden = !page.choice;
    if (!page.choice) {
      choiceBox.replaceChildren();
      return;
    }
    const board = page.state.board;
    mount(
      choiceBox,
      h('p', {}, t('path.title')),
      h(
        'div',
        { class: 'path-row' },
        page.choice.map((m) =>
          h(
            'button',
            { class: 'path-option', 'data-move': m.move, onclick: () => intents.play(m) },
            m.path.map((p) => spotName(board, p)).join(m.captures.length ? '×' : '-'),
          ),
        ),
        h('button', { class: 'secondary', onclick: intents.cancelChoice }, t('btn.cancel')),
      ),
    );
  }

  /** The clocks, counted down from when the state arrived. */
  function tick(page) {
    const clock = page.state?.clock;
    if (!clock) return;
    const elapsed = performance.now() - page.receivedAt;
    for (const el of section.querySelectorAll('.clock')) {
      const side = el.getAttribute('data-side');
      const running = clock.running && (clock.kind === 'game' || clock.running === side);
      const left = clock.remaining_ms[side] - (running ? elapsed : 0);
      el.textContent = clockText(left);
      el.classList.toggle('running', !!running);
      el.classList.toggle('low', left < 10000);
    }
  }

  /** The dialog that picks the piece a chess pawn promotes to. */
  function showPromotion(page, moves, intents) {
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
            onclick: () => intents.play(m),
          },
          s('svg', { viewBox: '0 0 100 100', 'aria-hidden': 'true' }, chessPiece(m.promotion, page.state.turn)),
        ),
      );
    const title = t('promo.title');
    mount(
      overlay,
      h(
        'div',
        { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': title },
        h('h2', {}, title),
        h('div', { class: 'promo-row' }, buttons),
        h('button', { class: 'secondary', onclick: intents.cancelPromotion }, t('btn.cancel')),
      ),
    );
    overlay.hidden = false;
    buttons[0]?.focus();
  }

  function closeOverlay() {
    overlay.hidden = true;
    overlay.replaceChildren();
  }

  /** Moves the board's keyboard focus (its one cell in the tab order) to `spot`. */
  function focusCell(spot) {
    for (const el of boards.querySelectorAll('[data-spot][tabindex="0"]')) el.setAttribute('tabindex', '-1');
    const target = boards.querySelector(`[data-spot="${spot.join(',')}"]`);
    if (target) {
      target.setAttribute('tabindex', '0');
      target.focus();
    }
  }

  /** The page gives way to an error (the game is not found or cannot load). */
  function showError(text) {
    mount(root, h('p', { class: 'error' }, text));
  }

  return {
    boards,
    form,
    input,
    render,
    renderStatus,
    tick,
    showPromotion,
    closeOverlay,
    focusCell,
    showError,
  };
}

/** A labelled checkbox that calls `change(checked)`. */
function checkbox(name, label, checked, change) {
  const box = h('input', { type: 'checkbox', id: `opt-${name}`, checked });
  box.addEventListener('change', () => change(box.checked));
  return h('label', { class: 'check', for: `opt-${name}` }, box, ' ', label);
}

const pieceName = (page, kind) => t(`piece.${page.state.game}.${kind}`);

// "e4, White pawn", "e5, legal move", for screen readers.
function describeSpot(page, board, spot, piece, { selected, target }) {
  const square = spotName(board, spot);
  let text = piece
    ? t('square.piece', { square, side: sideLabel(piece.side), piece: pieceName(page, piece.kind) })
    : square;
  if (selected) text += `, ${t('square.selected')}`;
  if (target) text += `, ${t('square.target')}`;
  return text;
}

// The pieces `side` has taken, small, with their names for screen readers.
function capturedStrip(page, side, taken) {
  if (!taken.length) return h('span', { class: 'captured', 'data-side': side });
  const { game } = page.state;
  // Draughts men all look alike: one and a count.
  const draughts = game === 'draughts';
  const icons = (draughts ? taken.slice(0, 1) : taken).map((kind) =>
    s(
      'svg',
      { viewBox: '0 0 100 100', class: `captured-piece captured-${kind}`, 'aria-hidden': 'true' },
      pieceDrawing(game, { kind, side: otherSide(page, side) }, page.xiangqiStyle, { style: page.chess3dStyle }),
    ),
  );
  return h(
    'span',
    {
      class: 'captured',
      'data-side': side,
      role: 'img',
      'aria-label': t('captured.label', {
        pieces: draughts ? String(taken.length) : taken.map((kind) => pieceName(page, kind)).join(', '),
      }),
    },
    icons,
    draughts ? h('span', { class: 'captured-count', 'aria-hidden': 'true' }, `×${taken.length}`) : null,
  );
}

/** `ms` on a clock: 1:02:03 from an hour, 4:05 from ten seconds, 9.8 below. */
function clockText(ms) {
  const total = Math.max(0, ms);
  const minutes = Math.floor(total / 60000);
  const seconds = Math.floor((total % 60000) / 1000);
  const tenths = Math.floor((total % 1000) / 100);
  if (minutes >= 60)
    return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  return total < 10000 ? `${seconds}.${tenths}` : `${minutes}:${String(seconds).padStart(2, '0')}`;
}

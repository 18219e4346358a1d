// The analysis board (`/analysis`): any game's position — set up from its position
// text, or a stored game (`?id=<game>&ply=<n>`) — with moves played on the board, the
// engine's evaluation bar, best lines in the game's notation and an arrow for the best
// move, and a whole-game review that marks inaccuracies, mistakes and blunders by how
// much each move lost. The server draws nothing: positions come from
// `POST /api/positions`, evaluations from `POST /api/analyse` (docs/api.md).
import * as api from './api.js';
import { drawBoard, neighbour, pieceDrawing, same } from './board.js';
import { games, seatsOf, sideLabel, sidesOf } from './common.js';
import { h, mount, s } from './dom.js';
import { errorText, onLangChange, t } from './i18n.js';

/** Centipawns a move may lose before it is marked, the worst first. */
const MARKS = [
  [300, 'blunder', '??'],
  [150, 'mistake', '?'],
  [70, 'inaccuracy', '?!'],
];

/** A mate counts as this many centipawns (more than any material balance). */
const MATE_CP = 1500;

/** Search time of one evaluation: shown while stepping, and per ply of a review. */
const LIVE_MS = 800;
const REVIEW_MS = 300;

/** The evaluation of a line for the first side (White, Red), in centipawns. */
function firstSideCp(line, turn, sides) {
  const cp = line.mate == null ? line.score : Math.sign(line.mate) * MATE_CP;
  return turn === sides[0] ? cp : -cp;
}

function evalText(line, turn, sides) {
  if (line.mate != null) {
    const winner = line.mate > 0 ? turn : sides.find((x) => x !== turn);
    return t('analysis.mate', { side: sideLabel(winner), n: Math.abs(line.mate) });
  }
  const cp = firstSideCp(line, turn, sides) / 100;
  return `${cp > 0 ? '+' : ''}${cp.toFixed(2)}`;
}

/** The page's own stylesheet, added once (the first page load does not need it). */
function addStyles() {
  if (document.getElementById('analysis-css')) return;
  document.head.append(h('link', { id: 'analysis-css', rel: 'stylesheet', href: '/css/analysis.css' }));
}

export function analysisPage(root) {
  addStyles();
  const params = new URLSearchParams(location.search);
  const page = {
    game: params.get('game') || 'chess',
    variant: params.get('variant') || null,
    start: params.get('position') || null,
    moves: (params.get('moves') || '').split(',').filter(Boolean),
    ply: null,
    view: null,
    engineOn: true,
    lines: [],
    depth: 0,
    selected: null,
    flipped: false,
    review: null,
    error: '',
    // Answers that come back after a newer request are dropped.
    asked: 0,
  };
  const notations = [];
  const controller = new AbortController();
  const signal = controller.signal;

  const bar = h('div', { class: 'eval-bar', role: 'img' }, h('div', { class: 'eval-fill' }));
  const boards = h('div', { class: 'boards' });
  const evalLine = h('p', { class: 'eval-text', 'aria-live': 'polite' });
  const linesBox = h('ol', { class: 'engine-lines' });
  const moveList = h('ol', { class: 'move-list analysis-moves' });
  const nav = h('div', { class: 'review-nav' });
  const message = h('p', { class: 'message', role: 'alert' });
  const setup = h('form', { class: 'setup' });
  const editor = h('div', { class: 'editor', hidden: true });
  const reviewBox = h('div', { class: 'review-box' });
  const heading = h('h1', { id: 'analysis-heading' });
  const engineToggle = h('input', { type: 'checkbox', id: 'engine-on', checked: true });
  const engineLabel = h('label', { for: 'engine-on', class: 'check' }, engineToggle, h('span'));
  engineToggle.addEventListener(
    'change',
    () => {
      page.engineOn = engineToggle.checked;
      page.lines = [];
      render();
      if (page.engineOn) evaluate();
    },
    { signal },
  );

  mount(
    root,
    h(
      'section',
      { class: 'analysis', 'aria-labelledby': 'analysis-heading' },
      h('div', { class: 'analysis-board' }, bar, boards),
      h(
        'aside',
        { class: 'panel' },
        heading,
        h('div', { class: 'panel-part' }, engineLabel, evalLine, linesBox, message),
        h('div', { class: 'panel-part' }, moveList, nav, reviewBox),
        h('div', { class: 'panel-part' }, editor, setup),
      ),
    ),
  );

  document.addEventListener(
    'keydown',
    (event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
      // On the board the arrows move between squares (below), elsewhere through the moves.
      if (event.target instanceof Element && event.target.closest('[data-spot]')) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      // Stepping through the moves leaves the focus where it is, off the board.
      page.keyboard = false;
      go(page.ply + (event.key === 'ArrowLeft' ? -1 : 1));
    },
    { signal },
  );
  // The keyboard on the board, as on the game page: the arrows move the focus over the
  // squares, Enter or Space presses the focused one.
  const KEYS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
  boards.addEventListener(
    'keydown',
    (event) => {
      const hit = event.target instanceof Element && event.target.closest('[data-spot]');
      if (!hit || !page.view) return;
      const spot = hit.getAttribute('data-spot').split(',').map(Number);
      page.keyboard = true;
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        page.focus = spot;
        if (page.editing) edit(spot);
        else press(spot);
        focusSpot();
        return;
      }
      if (!KEYS[event.key]) return;
      event.preventDefault();
      page.focus = neighbour(spot, KEYS[event.key], page.view.board, page.flipped);
      focusSpot();
    },
    { signal },
  );

  /** Moves the keyboard focus to `page.focus` (after a redraw too). */
  function focusSpot() {
    if (!page.focus) return;
    for (const el of boards.querySelectorAll('[data-spot][tabindex="0"]')) el.setAttribute('tabindex', '-1');
    const target = boards.querySelector(`[data-spot="${page.focus.join(',')}"]`);
    if (target) {
      target.setAttribute('tabindex', '0');
      target.focus();
    }
  }

  boards.addEventListener(
    'click',
    (event) => {
      const hit = event.target instanceof Element && event.target.closest('[data-spot]');
      if (!hit) return;
      const spot = hit.getAttribute('data-spot').split(',').map(Number);
      page.keyboard = false;
      if (page.editing) edit(spot);
      else press(spot);
    },
    { signal },
  );
  const stopLanguage = onLangChange(render);

  start();

  async function start() {
    const id = params.get('id');
    if (id) {
      try {
        const state = await api.gameState(id);
        if (signal.aborted) return;
        page.game = state.game;
        page.variant = state.variant;
        page.start = state.start_position;
        page.moves = state.moves.map((m) => m.move);
        page.gameMoves = page.moves.slice();
        state.moves.forEach((m, i) => {
          notations[i] = m.notation;
        });
        page.fromGame = id;
      } catch (error) {
        page.error = errorText(error);
      }
    }
    const ply = Number.parseInt(params.get('ply') ?? '', 10);
    page.ply = Number.isInteger(ply) && ply >= 0 && ply <= page.moves.length ? ply : page.moves.length;
    await show();
  }

  /** A seat this browser holds in the stored game shown, if any: its player's page says so. */
  function seatToken() {
    return page.fromGame ? Object.values(seatsOf(page.fromGame))[0] : undefined;
  }

  // A stored game's own line is asked for by its id, so that the server can refuse
  // the engine to a game in progress between people; other lines by their moves.
  function body(ply) {
    const ownLine =
      page.fromGame && page.gameMoves && page.moves.slice(0, ply).every((m, i) => m === page.gameMoves[i]);
    if (ownLine) return { game_id: page.fromGame, ply };
    return {
      game: page.game,
      variant: page.variant || undefined,
      position: page.start || undefined,
      moves: page.moves.slice(0, ply),
    };
  }

  /** Loads the position at `page.ply`, draws it, then asks the engine. */
  async function show() {
    const asked = ++page.asked;
    try {
      const view = await api.position(body(page.ply));
      if (signal.aborted || asked !== page.asked) return;
      page.view = view;
      page.error = '';
      // Turns alternate in every game: the side to move at the start follows.
      const firstToMove = view.turn === sidesOf(view.game)[0];
      page.startTurn = firstToMove === (page.ply % 2 === 0) ? 'first' : 'second';
    } catch (error) {
      if (signal.aborted || asked !== page.asked) return;
      page.error = errorText(error);
    }
    page.selected = null;
    page.lines = [];
    render();
    if (page.engineOn && page.view && !page.view.outcome) evaluate();
  }

  async function evaluate() {
    const asked = page.asked;
    try {
      const answer = await api.analyse({ ...body(page.ply), movetime_ms: LIVE_MS, multipv: 3 }, seatToken());
      if (signal.aborted || asked !== page.asked || !page.engineOn) return;
      page.lines = answer.lines;
      page.depth = answer.depth;
      page.error = '';
    } catch (error) {
      if (signal.aborted || asked !== page.asked) return;
      page.error = errorText(error);
    }
    render();
  }

  function go(ply) {
    if (ply < 0 || ply > page.moves.length || ply === page.ply) return;
    page.ply = ply;
    show();
  }

  function press(spot) {
    const view = page.view;
    if (!view || view.outcome) return;
    const from = view.legal_moves.filter((m) => same(m.path[0], spot));
    if (page.selected) {
      const chosen = view.legal_moves.find(
        (m) => same(m.path[0], page.selected) && same(m.path[m.path.length - 1], spot),
      );
      if (chosen) {
        // A new move replaces the line after the shown position, as on a real board.
        page.moves = page.moves.slice(0, page.ply).concat(chosen.move);
        page.ply += 1;
        page.review = null;
        show();
        return;
      }
    }
    page.selected = from.length && !same(spot, page.selected) ? spot : null;
    render();
  }

  /** Evaluates every position of the line, then marks each move by what it lost. */
  async function reviewGame() {
    const sides = sidesOf(page.game);
    const scores = [];
    const turns = [];
    page.review = { done: 0, total: page.moves.length + 1, marks: [] };
    render();
    for (let ply = 0; ply <= page.moves.length; ply++) {
      if (signal.aborted || !page.review) return;
      let answer = null;
      while (!answer) {
        try {
          answer = await api.analyse({ ...body(ply), movetime_ms: REVIEW_MS }, seatToken());
        } catch (error) {
          // The analysis quota refills: wait as the server says, then go on.
          if (error.status !== 429 && error.status !== 503) {
            page.error = errorText(error);
            page.review = null;
            render();
            return;
          }
          const wait = (error.params?.retry_after_s ?? 2) * 1000;
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (signal.aborted || !page.review) return;
        }
      }
      const line = answer.lines[0];
      // A finished position has no lines: its result is the evaluation.
      const ended = { '1-0': MATE_CP, '0-1': -MATE_CP }[answer.result] ?? (answer.result ? 0 : null);
      scores.push(line ? firstSideCp(line, answer.turn, sides) : ended);
      turns.push(answer.turn);
      page.review.done = ply + 1;
      render();
    }
    page.review.marks = page.moves.map((_, i) => {
      const [before, after] = [scores[i], scores[i + 1]];
      if (before == null || after == null) return null;
      // What the mover lost, seen from its side.
      const mover = turns[i] === sides[0] ? 1 : -1;
      const lost = mover * (before - after);
      const mark = MARKS.find(([limit]) => lost >= limit);
      return mark ? { kind: mark[1], sign: mark[2] } : null;
    });
    page.review.scores = scores;
    render();
  }

  function render() {
    heading.textContent = t('analysis.title');
    engineLabel.lastChild.textContent = t('analysis.engine');
    message.textContent = page.error;
    const view = page.view;
    if (!view) {
      mount(boards);
      drawSetup();
      return;
    }
    const sides = sidesOf(view.game);
    drawEditor();
    if (page.editing) {
      const board = { ...view.board, pieces: page.editing.pieces, check: null };
      mount(
        boards,
        ...drawBoard({
          game: view.game,
          board,
          flipped: page.flipped,
          xiangqiStyle: localStorage.getItem('tablero.xiangqiPieces') || 'chinese',
          chess3dStyle: localStorage.getItem('tablero.chess3dPieces') || 'moves',
          targets: [],
          marks: [],
          focus: page.focus || board.pieces[0]?.at || [0, 0, 0],
          label: t('analysis.board', { game: t(`game.${view.game}`) }),
          levelLabel: (n) => t('level.label', { n }),
          describe: (spot, piece) =>
            piece
              ? `${spotLabel(board, spot)} ${sideLabel(piece.side)} ${t(`piece.${view.game}.${piece.kind}`)}`
              : spotLabel(board, spot),
        }),
      );
      setup.hidden = true;
      // No engine while the board is being set up: it answers once the board is done.
      bar.hidden = true;
      evalLine.textContent = '';
      mount(linesBox);
      return;
    }
    setup.hidden = false;
    const best = page.lines[0];
    const bestHint = best && view.legal_moves.find((m) => m.move === best.pv[0]);
    const targets = page.selected
      ? view.legal_moves.filter((m) => same(m.path[0], page.selected)).map((m) => m.path[m.path.length - 1])
      : [];
    const svgs = drawBoard({
      game: view.game,
      board: view.board,
      flipped: page.flipped,
      xiangqiStyle: localStorage.getItem('tablero.xiangqiPieces') || 'chinese',
      chess3dStyle: localStorage.getItem('tablero.chess3dPieces') || 'moves',
      selected: page.selected,
      targets,
      marks: [],
      last: view.last_move,
      focus: page.focus || page.selected || view.board.pieces[0]?.at,
      label: t('analysis.board', { game: t(`game.${view.game}`) }),
      levelLabel: (n) => t('level.label', { n }),
      describe: (spot, piece) =>
        piece
          ? `${spotLabel(view.board, spot)} ${sideLabel(piece.side)} ${t(`piece.${view.game}.${piece.kind}`)}`
          : spotLabel(view.board, spot),
    });
    if (bestHint) drawArrow(svgs, view.board, bestHint.path, page.flipped);
    mount(boards, ...svgs);
    // A keyboard player keeps the focus where it was through the redraw.
    if (page.keyboard) focusSpot();

    // The bar fills with the first side's share: half for an equal game.
    const first = best ? firstSideCp(best, view.turn, sides) : 0;
    const share = 50 + 50 * Math.tanh(first / 600);
    bar.firstChild.style.height = `${share}%`;
    bar.setAttribute(
      'aria-label',
      best ? t('analysis.bar', { eval: evalText(best, view.turn, sides) }) : t('analysis.no_eval'),
    );
    bar.hidden = !page.engineOn;
    evalLine.textContent = view.outcome
      ? view.outcome.text
      : !page.engineOn
        ? ''
        : best
          ? t('analysis.eval', { eval: evalText(best, view.turn, sides), depth: page.depth })
          : t('analysis.thinking');
    mount(
      linesBox,
      ...page.lines.map((line) =>
        h(
          'li',
          {},
          h('strong', {}, evalText(line, view.turn, sides)),
          ' ',
          numbered(line.pv_notation, page.ply, view.turn === sides[0]),
        ),
      ),
    );
    drawMoves();
    drawSetup();
  }

  /** A line of moves with move numbers, starting at `ply` of the shown line. */
  function numbered(notations, ply, firstSideToMove) {
    return notations
      .map((n, i) => {
        const first = (i % 2 === 0) === firstSideToMove;
        const number = Math.floor((ply + i) / 2) + 1;
        if (first) return `${number}. ${n}`;
        return i === 0 ? `${number}… ${n}` : n;
      })
      .join(' ');
  }

  function drawMoves() {
    const marks = page.review?.marks || [];
    const items = page.moves.map((text, i) => {
      const notation = notationOf(i) ?? text;
      const mark = marks[i];
      const button = h(
        'button',
        {
          type: 'button',
          class: `move${i + 1 === page.ply ? ' current' : ''}${mark ? ` ${mark.kind}` : ''}`,
          title: mark ? t(`analysis.${mark.kind}`) : null,
        },
        `${notation}${mark ? mark.sign : ''}`,
      );
      button.addEventListener('click', () => go(i + 1));
      // Move numbers as the game counts them: `3.` before the first side's move,
      // `3…` before the second's.
      const firstSide = (i % 2 === 0) === (page.startTurn !== 'second');
      const number = Math.floor((i + (page.startTurn === 'second' ? 1 : 0)) / 2) + 1;
      // After a review, the evaluation of the position each move led to (for the
      // first side, in pawns; a mate as #).
      const after = page.review?.scores?.[i + 1];
      const evaluation =
        after == null
          ? null
          : h(
              'span',
              { class: 'move-eval' },
              Math.abs(after) >= MATE_CP
                ? `${after > 0 ? '+' : '-'}#`
                : `${after > 0 ? '+' : ''}${(after / 100).toFixed(1)}`,
            );
      return h('li', {}, h('span', { class: 'number' }, firstSide ? `${number}.` : `${number}…`), button, evaluation);
    });
    mount(moveList, ...(items.length ? items : [h('li', { class: 'empty' }, t('analysis.no_moves'))]));
    const step = (label, ply, icon) => {
      const b = h(
        'button',
        { type: 'button', class: 'icon', 'aria-label': label, title: label },
        s(
          'svg',
          { viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true' },
          s('path', { d: icon, fill: 'currentColor' }),
        ),
      );
      b.disabled = ply < 0 || ply > page.moves.length || ply === page.ply;
      b.addEventListener('click', () => go(ply));
      return b;
    };
    const flip = h('button', { type: 'button', class: 'secondary' }, t('btn.flip'));
    flip.addEventListener('click', () => {
      page.flipped = !page.flipped;
      render();
    });
    mount(
      nav,
      step(t('btn.first'), 0, 'M5 5h2v14H5zM19 5v14L8 12z'),
      step(t('btn.prev'), page.ply - 1, 'M17 5v14L6 12z'),
      step(t('btn.next'), page.ply + 1, 'M7 5v14l11-7z'),
      step(t('btn.last'), page.moves.length, 'M17 5h2v14h-2zM5 5v14l11-7z'),
      flip,
    );
    const review = h('button', { type: 'button', id: 'review-game' }, t('analysis.review'));
    review.disabled = !page.moves.length || (page.review && page.review.done < page.review.total);
    review.addEventListener('click', reviewGame);
    const progress = page.review
      ? page.review.done < page.review.total
        ? t('analysis.reviewing', { done: page.review.done, total: page.review.total })
        : t('analysis.reviewed', {
            blunders: marks.filter((m) => m?.kind === 'blunder').length,
            mistakes: marks.filter((m) => m?.kind === 'mistake').length,
            inaccuracies: marks.filter((m) => m?.kind === 'inaccuracy').length,
          })
      : '';
    mount(reviewBox, review, h('p', { class: 'review-progress', 'aria-live': 'polite' }, progress));
  }

  // The notation of move `i` of the line: the shown position's list holds the moves
  // up to it; later ones are known from an earlier view of the same line or the game.
  function notationOf(i) {
    const view = page.view;
    if (view && i < view.moves.length && view.moves[i].move === page.moves[i]) {
      notations[i] = view.moves[i].notation;
    }
    return notations[i];
  }

  /** Starts editing the shown position: its pieces become the editor's. */
  function startEditing() {
    const view = page.view;
    if (!view) return;
    const sides = sidesOf(view.game);
    page.editing = {
      pieces: view.board.pieces.map((p) => ({ ...p })),
      tool: { side: sides[0], kind: games().find((g) => g.id === view.game)?.pieces?.[0] ?? null },
      turn: view.turn,
    };
    page.selected = null;
    // An evaluation still on its way belongs to the board before the edit.
    page.asked += 1;
    render();
  }

  /** A press on the board while editing: puts the chosen piece there, or takes it off. */
  function edit(spot) {
    const editing = page.editing;
    const here = editing.pieces.findIndex((p) => same(p.at, spot));
    const { tool } = editing;
    const sameAsTool =
      here >= 0 &&
      tool !== 'erase' &&
      editing.pieces[here].kind === tool.kind &&
      editing.pieces[here].side === tool.side;
    if (here >= 0) editing.pieces.splice(here, 1);
    if (tool !== 'erase' && !sameAsTool) editing.pieces.push({ at: spot, side: tool.side, kind: tool.kind });
    render();
  }

  /** Sends the edited board: the server writes it as the game's position text. */
  async function finishEditing() {
    const editing = page.editing;
    try {
      const view = await api.position({
        game: page.view.game,
        variant: page.view.variant,
        pieces: editing.pieces.map((p) => ({ at: p.at, side: p.side, kind: p.kind })),
        turn: editing.turn,
      });
      if (signal.aborted) return;
      page.editing = null;
      page.start = view.start_position;
      page.moves = [];
      page.gameMoves = null;
      page.fromGame = null;
      page.ply = 0;
      page.review = null;
      notations.length = 0;
      page.error = '';
      show();
    } catch (error) {
      page.error = errorText(error);
      render();
    }
  }

  function drawEditor() {
    const editing = page.editing;
    editor.hidden = !editing;
    if (!editing || !page.view) {
      mount(editor);
      return;
    }
    const game = page.view.game;
    const sides = sidesOf(game);
    const letters = games().find((g) => g.id === game)?.pieces || [];
    const tool = (choice, label, content) => {
      const chosen =
        choice === 'erase'
          ? editing.tool === 'erase'
          : editing.tool !== 'erase' && editing.tool.side === choice.side && editing.tool.kind === choice.kind;
      const button = h(
        'button',
        { type: 'button', class: 'tool', 'aria-pressed': chosen ? 'true' : 'false', 'aria-label': label, title: label },
        content,
      );
      button.addEventListener('click', () => {
        editing.tool = choice;
        render();
      });
      return button;
    };
    const palette = sides.map((side) =>
      h(
        'div',
        { class: 'palette', role: 'group', 'aria-label': sideLabel(side) },
        letters.map((kind) =>
          tool(
            { side, kind },
            `${sideLabel(side)} ${t(`piece.${game}.${kind}`)}`,
            s(
              'svg',
              { viewBox: '0 0 100 100', width: 36, height: 36, 'aria-hidden': 'true' },
              pieceDrawing(game, { kind, side }, localStorage.getItem('tablero.xiangqiPieces') || 'chinese', {
                style: localStorage.getItem('tablero.chess3dPieces') || 'moves',
              }),
            ),
          ),
        ),
      ),
    );
    const turn = h(
      'select',
      { id: 'editor-turn' },
      sides.map((side) => h('option', { value: side, selected: side === editing.turn }, sideLabel(side))),
    );
    turn.addEventListener('change', () => {
      editing.turn = turn.value;
    });
    const button = (id, label, action, cls = 'secondary') => {
      const b = h('button', { type: 'button', id, class: cls }, label);
      b.addEventListener('click', action);
      return b;
    };
    mount(
      editor,
      h('h2', {}, t('analysis.editing')),
      ...palette,
      h('div', { class: 'row' }, tool('erase', t('analysis.erase'), '✕')),
      h('label', { for: 'editor-turn' }, t('analysis.to_move')),
      turn,
      h(
        'div',
        { class: 'row' },
        button('editor-clear', t('analysis.clear'), () => {
          editing.pieces = [];
          render();
        }),
        button('editor-cancel', t('analysis.cancel'), () => {
          page.editing = null;
          render();
        }),
        button('editor-done', t('analysis.done'), finishEditing, ''),
      ),
    );
  }

  function editButton() {
    const b = h('button', { type: 'button', id: 'edit-position', class: 'secondary' }, t('analysis.edit'));
    b.addEventListener('click', startEditing);
    return b;
  }

  function drawSetup() {
    const gameSelect = h(
      'select',
      { id: 'setup-game' },
      games().map((g) => h('option', { value: g.id, selected: g.id === page.game }, t(`game.${g.id}`))),
    );
    const info = games().find((g) => g.id === page.game);
    const variantSelect = h(
      'select',
      { id: 'setup-variant' },
      (info?.variants || []).map((v) =>
        h('option', { value: v.id, selected: v.id === (page.variant || info.variants[0].id) }, v.name),
      ),
    );
    const positionInput = h('input', {
      id: 'setup-position',
      value: page.start || '',
      placeholder: t('analysis.start_position'),
      spellcheck: 'false',
      autocomplete: 'off',
    });
    gameSelect.addEventListener('change', () => {
      page.game = gameSelect.value;
      page.variant = null;
      page.start = null;
      drawSetup();
    });
    mount(
      setup,
      h('h2', {}, t('analysis.setup')),
      h('label', { for: 'setup-game' }, t('lobby.game')),
      gameSelect,
      h('label', { for: 'setup-variant' }, t('lobby.variant')),
      variantSelect,
      h('label', { for: 'setup-position' }, t('analysis.position')),
      positionInput,
      h('button', { type: 'submit' }, t('analysis.set')),
      page.view ? editButton() : null,
    );
    setup.onsubmit = (event) => {
      event.preventDefault();
      page.game = gameSelect.value;
      page.variant = variantSelect.value;
      page.start = positionInput.value.trim() || null;
      page.moves = [];
      page.ply = 0;
      page.review = null;
      notations.length = 0;
      show();
    };
  }

  return function unmount() {
    controller.abort();
    stopLanguage();
    page.review = null;
  };
}

function spotLabel(board, spot) {
  return board.names?.[spot[0]]?.[spot[2]]?.[spot[1]] ?? spot.join(',');
}

/** An arrow for the best move, from its first to its last square, on its level. */
function drawArrow(svgs, board, path, flipped) {
  const from = path[0];
  const to = path[path.length - 1];
  const svg = svgs.find((x) => Number(x.getAttribute('data-level')) === from[0]);
  if (!svg || from[0] !== to[0]) return;
  const centre = ([, x, y]) => {
    const col = flipped ? board.width - 1 - x : x;
    const row = flipped ? y : board.height - 1 - y;
    return [col * 100 + 50, row * 100 + 50];
  };
  const [x1, y1] = centre(from);
  const [x2, y2] = centre(to);
  const id = `arrow-head-${from[0]}`;
  svg.append(
    s(
      'defs',
      {},
      s(
        'marker',
        { id, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto-start-reverse' },
        s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }),
      ),
    ),
    s('line', { x1, y1, x2, y2, class: 'best-arrow', 'marker-end': `url(#${id})` }),
  );
}

// The game page's state and what follows from it: the seats this device holds, whose
// turn it is, which side is drawn at the bottom, what a press on a square means, the
// captured pieces. No DOM: the view draws from this, the controller changes it.
import { same } from '../board.js';
import { lang } from '../i18n.js';
import { reasonText, seatsOf, sidesOf } from '../common.js';

export const last = (list) => list[list.length - 1];
const pathKey = (m) => `${m.path.map((p) => p.join(',')).join(';')}|${m.captures.map((p) => p.join(',')).join(';')}`;

/** The state of the page of game `id`, before the server's state arrives. */
export function createPage(id) {
  const notation = localStorage.getItem('tablero.xiangqiNotation');
  const files = localStorage.getItem('tablero.xiangqiFiles');
  return {
    id,
    /** The server's state of the game (`GET /api/games/{id}`), null until it comes. */
    state: null,
    /** The seat tokens this device holds: {side: token}. */
    seats: seatsOf(id),
    flip: false,
    autoflip: localStorage.getItem('tablero.autoflip') === 'on',
    xiangqiStyle: localStorage.getItem('tablero.xiangqiPieces') || 'chinese',
    // Ajedrez 3D's pieces: drawings of their moves, or their chess namesakes.
    chess3dStyle: localStorage.getItem('tablero.chess3dPieces') || 'moves',
    /** The level shown on phones (Ajedrez 3D), null: where the last move ended. */
    level: null,
    /** The game-over banner was put away. */
    bannerClosed: false,
    // Chinese move notation: the saved choice, else on when the page is in Chinese.
    chineseNotation: notation ? notation === 'chinese' : lang() === 'zh-CN',
    // Xiangqi's file numbers on the edges: likewise.
    fileNumbers: files ? files === 'on' : lang() === 'zh-CN',
    /** The spot that keeps the keyboard focus on the board. */
    focus: null,
    /** The board at ply 0: what was captured is what is missing from it. */
    startBoard: null,
    /** The origin of the move being chosen, and the squares pressed after it. */
    selected: null,
    clicks: [],
    /** Moves that end on the pressed square by different paths: one is to be chosen. */
    choice: null,
    /** The position shown while reviewing (`GET .../positions/{ply}`), null: now. */
    review: null,
    message: '',
    connected: true,
    /** When the state arrived, `performance.now()`: the clocks run from then. */
    receivedAt: 0,
    confirmResign: false,
  };
}

/** Forgets a half-chosen move. */
export function clearSelection(page) {
  page.selected = null;
  page.clicks = [];
  page.choice = null;
}

/**
 * Takes a state from the server. Answers what changed: `changed` when it is another
 * version (a half-chosen move no longer applies), `moved` when a move came, `ended`
 * when the game just ended; null when the state is older than the one held and was
 * dropped.
 */
export function receive(page, state) {
  const old = page.state;
  if (old && state.version < old.version) return null;
  page.state = state;
  page.receivedAt = performance.now();
  const changed = !old || state.version !== old.version;
  if (changed) clearSelection(page);
  const moved = !!old && state.moves.length > old.moves.length;
  // A phone shows the level where the move that just came ended.
  if (moved) page.level = null;
  // Reviewing the position that was the last one follows the game.
  if (moved && page.review && page.review.ply === old.moves.length) page.review = null;
  if (page.review && page.review.ply > state.moves.length) page.review = null;
  return { changed, moved, ended: !!old && !old.outcome && !!state.outcome };
}

// --- sides and seats ---------------------------------------------------------

export const sides = (page) => sidesOf(page.state.game);
export const otherSide = (page, side) => sides(page).find((x) => x !== side);
export const tokenFor = (page, side) => page.seats[side];
export const mySides = (page) => Object.keys(page.seats).filter((side) => sides(page).includes(side));

/** The side that made the last move: not the side to move. */
export const lastMover = (page) => otherSide(page, page.state.turn);

/** The side that acts for this page: the side to move if it is ours, else our seat. */
export function actingSide(page) {
  if (tokenFor(page, page.state.turn)) return page.state.turn;
  return mySides(page)[0] || null;
}

export const canMove = (page) =>
  !!page.state && page.state.status === 'playing' && !page.review && !!tokenFor(page, page.state.turn);

/** Whether the second side is drawn at the bottom. */
export function isFlipped(page) {
  const [first, second] = sides(page);
  let bottomSide = first;
  const mine = mySides(page);
  if (page.state.mode === 'hotseat') {
    if (page.autoflip) bottomSide = page.state.turn;
  } else if (mine.length === 1) {
    bottomSide = mine[0];
  }
  return (bottomSide === second) !== page.flip;
}

// --- what is shown -----------------------------------------------------------

/** The board shown: the reviewed position's, else the current one. */
export const shownBoard = (page) => (page.review || page.state).board;
export const shownLastMove = (page) => (page.review ? page.review.last_move : page.state.last_move);
/** The ply shown: moves played before the position on the board. */
export const shownPly = (page) => (page.review ? page.review.ply : page.state.moves.length);

/** The level a phone shows: the one chosen, else where the last move shown ended. */
export function shownLevel(page, board) {
  if (page.level != null && page.level < board.levels) return page.level;
  const lastMove = shownLastMove(page);
  return lastMove ? last(lastMove.path)[0] : 0;
}

/** The outcome's reason in the current language, e.g. "Red is checkmated". */
export const outcomeText = (page) => reasonText(page.state.outcome, sides(page));

/** A move's notation as this page writes it (Chinese for xiangqi when chosen). */
export function notationOf(page, move) {
  const chinese = page.state.game === 'xiangqi' && page.chineseNotation;
  return chinese && move.notation_zh ? move.notation_zh : move.notation;
}

/** The spot in the tab order: the last one pressed or moved to, else the bottom-left
 * corner as the player sees the board. */
export function focusSpot(page, board, flipped) {
  const f = page.focus;
  if (f && f[0] < board.levels && f[1] < board.width && f[2] < board.height) return f;
  return flipped ? [board.levels - 1, board.width - 1, board.height - 1] : [0, 0, 0];
}

// --- choosing a move ---------------------------------------------------------

const REDRAW = { redraw: true };

export const movesFrom = (page, spot) => page.state.legal_moves.filter((m) => same(m.path[0], spot));

/** Whether `move` stops on `spots` after its origin, in that order (not necessarily on
 * consecutive stops: a press may skip the squares that leave no doubt). */
function passesInOrder(move, spots) {
  let i = 1;
  for (const spot of spots) {
    while (i < move.path.length && !same(move.path[i], spot)) i++;
    if (i === move.path.length) return false;
    i++;
  }
  return true;
}

/** The moves from the selected square through every square pressed since. */
const movesThroughClicks = (page, clicks) => movesFrom(page, page.selected).filter((m) => passesInOrder(m, clicks));

/** Where the selected piece can go: the last square of each move still possible. */
export function targets(page) {
  return page.selected ? movesThroughClicks(page, page.clicks).map((m) => last(m.path)) : [];
}

/** The squares that tell the paths of a choice apart (passed by some, not all). */
export function choiceMarks(page) {
  if (!page.choice) return [];
  const passed = new Map();
  for (const m of page.choice) for (const p of m.path.slice(1, -1)) passed.set(p.join(','), p);
  return [...passed.values()].filter((p) => !page.choice.every((m) => m.path.some((q) => same(p, q))));
}

/**
 * Draughts: the pieces that must capture, or none when no capture is compulsory. Every
 * rule set makes capturing compulsory, so a capture is due exactly when every legal
 * move takes something; the rules (the majority rule among them) already left out the
 * pieces that may not take.
 */
export function mustCapture(page) {
  const moves = page.state.legal_moves;
  if (page.state.game !== 'draughts' || !moves.length || !moves.every((m) => m.captures.length)) return [];
  return [...new Map(moves.map((m) => [m.path[0].join(','), m.path[0]])).values()];
}

/** The pieces marked as due to capture: before a piece is chosen, on this page's turn. */
export const forcedMarks = (page) => (canMove(page) && !page.selected ? mustCapture(page) : []);

/**
 * A capture being clicked through: the squares pressed so far and the men the moves
 * still possible take.
 */
export function pathMarks(page) {
  if (!page.selected || !page.clicks.length) return { passed: [], taken: [] };
  const taken = new Map();
  for (const m of movesThroughClicks(page, page.clicks)) for (const c of m.captures) taken.set(c.join(','), c);
  return { passed: page.clicks, taken: [...taken.values()] };
}

/**
 * A press on `spot` while choosing a move: selects, narrows down or completes it.
 * Answers `{play: move}` when one move is chosen, `{promote: moves}` when a chess
 * promotion piece is to be picked, `{redraw: true}` when the selection changed,
 * `{mustCapture: spots}` when a piece of the side to move was pressed that may not
 * move because the pieces on `spots` must capture, null when this page may not move
 * now.
 *
 * A press on the selected piece drops it, as on lidraughts. A draughts capture that
 * ends where it began (`32x32`) is then played by pressing a square it lands on first:
 * once a square of its path is pressed, the piece's own square is a destination like
 * any other, and a move is played as soon as it is the only one left (docs/play.md).
 */
export function press(page, spot) {
  page.focus = spot;
  if (!canMove(page)) return null;
  if (page.choice) {
    const left = page.choice.filter((m) => m.path.slice(1, -1).some((p) => same(p, spot)));
    if (left.length === 1) return { play: left[0] };
    if (left.length > 1) {
      page.choice = left;
      return REDRAW;
    }
    page.choice = null;
  }
  if (page.selected && !(same(page.selected, spot) && !page.clicks.length)) {
    const clicks = [...page.clicks, spot];
    const matches = movesThroughClicks(page, clicks);
    if (matches.length) {
      const ending = matches.filter((m) => same(last(m.path), spot));
      if (ending.length) {
        const distinct = [...new Map(ending.map((m) => [pathKey(m), m])).values()];
        if (distinct.length === 1) {
          return ending.some((m) => m.promotion) ? { promote: ending } : { play: ending[0] };
        }
        page.clicks = clicks;
        page.choice = distinct;
        return REDRAW;
      }
      if (matches.length === 1) return { play: matches[0] };
      page.clicks = clicks;
      return REDRAW;
    }
  }
  const reselect = !same(page.selected, spot);
  page.clicks = [];
  page.selected = reselect && movesFrom(page, spot).length ? spot : null;
  if (page.selected || !reselect) return REDRAW;
  const mine = page.state.board.pieces.some((p) => same(p.at, spot) && p.side === page.state.turn);
  const due = mustCapture(page);
  return mine && due.length ? { mustCapture: due } : REDRAW;
}

// --- captured pieces ---------------------------------------------------------

// The most valuable first.
const VALUE_ORDER = { chess: 'qrbnp', chess3d: 'dtacp', xiangqi: 'rncbap', draughts: 'km' };

/**
 * The pieces each side has lost since the start position: {side: [kind, ...]}, the
 * most valuable first; null before the start position is known. A pawn that promoted
 * was not captured.
 */
export function capturedPieces(page, board) {
  if (!page.startBoard) return null;
  const game = page.state.game;
  const count = (b) => {
    const c = {};
    for (const p of b.pieces) {
      // A draughts king is a crowned man: count men.
      const kind = game === 'draughts' ? 'm' : p.kind;
      c[p.side] = c[p.side] || {};
      c[p.side][kind] = (c[p.side][kind] || 0) + 1;
    }
    return c;
  };
  const before = count(page.startBoard);
  const now = count(board);
  const order = VALUE_ORDER[game] || '';
  const out = {};
  for (const side of sides(page)) {
    const a = before[side] || {};
    const b = now[side] || {};
    const missing = {};
    let promoted = 0;
    for (const kind of order) {
      missing[kind] = Math.max(0, (a[kind] || 0) - (b[kind] || 0));
      if (kind !== 'p') promoted += Math.max(0, (b[kind] || 0) - (a[kind] || 0));
    }
    if (game === 'chess' || game === 'chess3d') missing.p = Math.max(0, (missing.p || 0) - promoted);
    out[side] = [...order].flatMap((kind) => Array(missing[kind] || 0).fill(kind));
  }
  return out;
}

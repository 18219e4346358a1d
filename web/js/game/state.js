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
    /** A move chosen on the opponent's turn, {from, to}, played when the turn comes if
     * it is legal then; `premoveFrom` its origin while the destination is to come. */
    premove: null,
    premoveFrom: null,
    /** The player's own marks on the board, right-clicked: {from, to}, a circle where
     * they are the same spot, else an arrow. They stay on this page. */
    annotations: [],
    /** The i18n key of what happened to an offer of ours (declined), until we act. */
    notice: null,
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
  if (changed) {
    clearSelection(page);
    keepPremove(page, old);
    const declined = declinedNotice(page, old, state);
    if (declined) page.notice = declined;
  }
  const moved = !!old && state.moves.length > old.moves.length;
  // A phone shows the level where the move that just came ended.
  if (moved) page.level = null;
  // Reviewing the position that was the last one follows the game.
  if (moved && page.review && page.review.ply === old.moves.length) page.review = null;
  if (page.review && page.review.ply > state.moves.length) page.review = null;
  return { changed, moved, ended: !!old && !old.outcome && !!state.outcome, offered: offered(page, old, state) };
}

/** Whether `side` is ours alone: the opponent's seat is not on this device too. */
const oursAlone = (page, side) => !!side && !!tokenFor(page, side) && !tokenFor(page, otherSide(page, side));

/**
 * An offer or request of ours that went away while the game goes on and no move was
 * taken back was turned down: the server sends no word of it, only the new state.
 * A draw offer also lapses when the opponent moves instead of answering, which
 * declines it as well.
 */
function declinedNotice(page, old, state) {
  if (!old || state.outcome || state.moves.length < old.moves.length) return null;
  if (oursAlone(page, old.takeback_request) && !state.takeback_request) return 'notice.takebackDeclined';
  if (oursAlone(page, old.draw_offer) && !state.draw_offer) return 'notice.drawDeclined';
  return null;
}

/** Whether the opponent just offered a draw or asked for a takeback. */
function offered(page, old, state) {
  const fresh = (field) => !!state[field] && state[field] !== old?.[field] && !tokenFor(page, state[field]);
  return !!old && (fresh('draw_offer') || fresh('takeback_request'));
}

// --- sides and seats ---------------------------------------------------------

export const sides = (page) => sidesOf(page.state.game);
export const otherSide = (page, side) => sides(page).find((x) => x !== side);
export const tokenFor = (page, side) => page.seats[side];
export const mySides = (page) => Object.keys(page.seats).filter((side) => sides(page).includes(side));

/** The side that made the last move: not the side to move. */
export const lastMover = (page) => otherSide(page, page.state.turn);

/**
 * Whether a premove may be chosen now: a chess or xiangqi game against someone on
 * another device or the computer, on their turn.
 */
export function canPremove(page) {
  const { state } = page;
  return (
    !!state &&
    state.status === 'playing' &&
    !page.review &&
    (state.game === 'chess' || state.game === 'xiangqi') &&
    state.mode !== 'hotseat' &&
    mySides(page).length === 1 &&
    !tokenFor(page, state.turn)
  );
}

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

/** Where the selected piece can go: the last square of each move still possible,
 * and the rook a king may castle with. */
export function targets(page) {
  if (!page.selected) return [];
  const ends = movesThroughClicks(page, page.clicks).map((m) => last(m.path));
  const rooks = page.clicks.length ? [] : castlingRooks(page, page.selected).map((c) => c.rook);
  return [...ends, ...rooks.filter((r) => !ends.some((e) => same(e, r)))];
}

const pieceAt = (board, spot) => board.pieces.find((p) => same(p.at, spot));

/**
 * Chess: the castling moves of the king on `from` with the rook each is made with
 * ({move, rook}). The move format writes standard castling as the king's two-square
 * step (`e1g1`); its rook is the first one beyond on that rank, since every square
 * between king and castling rook is empty when castling is legal. Chess960 writes it
 * king-to-rook (`e1h1`), so its path already ends on the rook and needs nothing here.
 */
function castlingRooks(page, from) {
  const { board, game } = page.state;
  const king = pieceAt(board, from);
  if (game !== 'chess' || king?.kind !== 'k') return [];
  const found = [];
  for (const move of movesFrom(page, from)) {
    const to = last(move.path);
    const step = Math.sign(to[1] - from[1]);
    if (to[2] !== from[2] || Math.abs(to[1] - from[1]) !== 2) continue;
    for (let x = from[1] + step; x >= 0 && x < board.width; x += step) {
      const piece = pieceAt(board, [from[0], x, from[2]]);
      if (!piece) continue;
      if (piece.kind === 'r' && piece.side === king.side) found.push({ move, rook: piece.at });
      break;
    }
  }
  return found;
}

/** The castling move of the king on `from` with the rook on `to` (standard chess:
 * the king put on its own rook castles, as on lichess), or null. */
const castlingOnto = (page, from, to) => castlingRooks(page, from).find((c) => same(c.rook, to))?.move || null;

// --- premoves ----------------------------------------------------------------

/**
 * A press on the opponent's turn. Any from/to of a piece of ours may be chosen (the
 * page knows no rules; the server's legal moves of the position to come decide when
 * it comes), except onto another piece of ours, unless a chess king goes onto a rook
 * to castle. A press while a premove stands takes it back (and may start another).
 */
function pressPremove(page, spot) {
  const piece = pieceAt(page.state.board, spot);
  const own = premovable(page, spot);
  const from = page.premoveFrom;
  if (page.premove) {
    page.premove = null;
    page.premoveFrom = own ? spot : null;
    return REDRAW;
  }
  if (from && !same(from, spot)) {
    const mover = pieceAt(page.state.board, from);
    const castles = page.state.game === 'chess' && mover?.kind === 'k' && piece?.kind === 'r' && from[2] === spot[2];
    if (!own || castles) {
      page.premove = { from, to: spot };
      page.premoveFrom = null;
      return REDRAW;
    }
  }
  page.premoveFrom = own && !same(from, spot) ? spot : null;
  return REDRAW;
}

/** Whether the piece on `spot` may be moved ahead now: it is ours, on their turn. */
export const premovable = (page, spot) =>
  canPremove(page) && pieceAt(page.state.board, spot)?.side === mySides(page)[0];

/** Drops the premove, chosen or half-chosen. */
export function cancelPremove(page) {
  page.premove = null;
  page.premoveFrom = null;
}

/** The squares of the premove (or of its origin while its destination is to come). */
export function premoveMarks(page) {
  if (page.premove) return [page.premove.from, page.premove.to];
  return page.premoveFrom ? [page.premoveFrom] : [];
}

// A new state: a premove waits while the game goes on without a takeback; a piece
// picked on the opponent's turn whose turn came is selected as for a move.
function keepPremove(page, old) {
  const { state } = page;
  if (state.status !== 'playing' || (old && state.moves.length < old.moves.length)) {
    cancelPremove(page);
    return;
  }
  if (page.premoveFrom && tokenFor(page, state.turn)) {
    if (movesFrom(page, page.premoveFrom).length) page.selected = page.premoveFrom;
    page.premoveFrom = null;
  }
}

/**
 * The premove once our turn has come: the legal move from its origin to its
 * destination (a queen for a promotion, castling for a king put on its rook), or null
 * when there is none now. Either way it is used up.
 */
export function takePremove(page) {
  const { premove, state } = page;
  if (!premove || state.status !== 'playing' || !tokenFor(page, state.turn)) return null;
  page.premove = null;
  const ending = movesFrom(page, premove.from).filter((m) => same(last(m.path), premove.to));
  return ending.find((m) => !m.promotion || m.promotion === 'q') || castlingOnto(page, premove.from, premove.to);
}

// --- the player's marks ------------------------------------------------------

/** A right-click on `from`, released on `to`: draws that circle or arrow, or takes it
 * away when it is there. */
export function annotate(page, from, to) {
  const before = page.annotations.length;
  page.annotations = page.annotations.filter((a) => !(same(a.from, from) && same(a.to, to)));
  if (page.annotations.length === before) page.annotations.push({ from, to });
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
  if (canPremove(page)) return pressPremove(page, spot);
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
  const castling = page.selected && !page.clicks.length && castlingOnto(page, page.selected, spot);
  if (castling) return { play: castling };
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

// --- captured pieces and material --------------------------------------------

// Pieces' values in pawns, as players count them (Ajedrez 3D's and xiangqi's after the
// engine's values). Losing the dama loses the game, so it counts for nothing; a
// draughts man and king count one each: players count pieces.
const VALUES = {
  chess: { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 },
  chess3d: { p: 1, c: 3, t: 3, a: 5, r: 9, d: 0 },
  xiangqi: { p: 1, a: 2, b: 2, n: 4, c: 4, r: 9, k: 0 },
  draughts: { m: 1, k: 1 },
};

/** How far each side is ahead in material on `board`: {side: points}, positive for
 * the side ahead. */
export function materialLead(page, board) {
  const values = VALUES[page.state.game] || {};
  const total = {};
  for (const side of sides(page)) total[side] = 0;
  for (const p of board.pieces) total[p.side] = (total[p.side] || 0) + (values[p.kind] || 0);
  const out = {};
  for (const side of sides(page)) out[side] = total[side] - total[otherSide(page, side)];
  return out;
}

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

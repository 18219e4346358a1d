// Boards as SVG. Every game shares one grid of spots [level, x, y] (x from the left,
// y from the bottom, as the first side sees it), so the page needs no rules: it draws
// the pieces the state lists and the squares of the legal moves it lists.
import { s } from './dom.js';
import { chessPiece, chess3dPiece, draughtsPiece, xiangqiPiece } from './pieces.js';

const CELL = 100;

export const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const key = (spot) => spot.join(',');

/** Where a spot's cell starts on the SVG of its level. */
function place(spot, board, flipped) {
  const col = flipped ? board.width - 1 - spot[1] : spot[1];
  const row = flipped ? spot[2] : board.height - 1 - spot[2];
  return [col * CELL, row * CELL];
}

/**
 * The drawing of a piece of `game` in a 100×100 box; `xiangqiStyle` as `xiangqiPiece`,
 * `chess3d` {style, flipped} as `chess3dPiece` on a board drawn `flipped`.
 */
export function pieceDrawing(game, piece, xiangqiStyle, chess3d = {}) {
  switch (game) {
    case 'xiangqi':
      return xiangqiPiece(piece.kind, piece.side, xiangqiStyle);
    case 'draughts':
      return draughtsPiece(piece.kind, piece.side);
    case 'chess3d':
      return chess3dPiece(piece.kind, piece.side, chess3d.style, (piece.side === 'white') !== !!chess3d.flipped);
    default:
      return chessPiece(piece.kind, piece.side);
  }
}

/** A spot's name in its game's notation, as the server names it (`e4`, `0B5`, `32`). */
export const spotName = (board, spot) => board.names[spot[0]][spot[2]][spot[1]];

/**
 * Draws the board: one SVG per level. `view` holds: game, board, flipped,
 * xiangqiStyle, chess3dStyle, selected, targets (spots), marks (spots to pick a path
 * from), forced (pieces that must capture), path ({passed, taken}: the squares of a
 * capture pressed so far and the men it takes), fileNumbers (xiangqi: each side's file
 * numbers along the edges instead of the ICCS letters and ranks), last (a move hint),
 * premove (the squares of a move chosen ahead), annotations (the player's circles and
 * arrows: {from, to}),
 * focus (the spot that takes the keyboard focus: roving tabindex), label,
 * levelLabel(n) and describe(spot, piece, {selected, target}) for the cells' labels.
 */
export function drawBoard(view) {
  const levels = [];
  for (let level = 0; level < view.board.levels; level++) levels.push(drawLevel(view, level));
  return levels;
}

function drawLevel(view, level) {
  const { game, board, flipped } = view;
  const xiangqi = game === 'xiangqi';
  const w = board.width * CELL;
  const h = board.height * CELL;
  // Xiangqi's labels stand outside the grid: the top edge needs room for the file
  // numbers.
  const above = view.fileNumbers ? 50 : 10;
  const viewBox = xiangqi ? `-40 ${-above} ${w + 80} ${h + 50 + above}` : `0 0 ${w} ${h}`;
  const svg = s('svg', {
    viewBox,
    class: `board board-${game}`,
    'data-level': level,
    role: 'grid',
    'aria-label': view.board.levels > 1 ? `${view.label} — ${view.levelLabel(level)}` : view.label,
  });
  const onLevel = (spot) => spot[0] === level;
  const cell = (spot, cls, extra = {}) => {
    const [px, py] = place(spot, board, flipped);
    return s('rect', { x: px, y: py, width: CELL, height: CELL, class: cls, ...extra });
  };

  // The board itself.
  if (xiangqi) {
    svg.append(xiangqiLines(board, flipped, above - 10));
  } else {
    // Draughts pieces stand on the dark squares, which are the numbered ones: a1 is
    // light on Italian and Spanish boards. Elsewhere a1 is dark.
    const playable = new Set(board.numbers.map(key));
    const squares = s('g', { class: 'squares' });
    for (let y = 0; y < board.height; y++) {
      for (let x = 0; x < board.width; x++) {
        const dark = playable.size ? playable.has(key([level, x, y])) : (x + y) % 2 === 0;
        squares.append(cell([level, x, y], dark ? 'sq dark' : 'sq light'));
      }
    }
    svg.append(squares);
  }

  // Highlights under the pieces.
  const marks = s('g', { class: 'marks' });
  const last = view.last;
  if (last) {
    for (const spot of [last.path[0], last.path[last.path.length - 1]]) {
      if (onLevel(spot)) marks.append(mark(spot, 'last', board, flipped, xiangqi));
    }
    for (const spot of last.path.slice(1, -1)) {
      if (onLevel(spot)) marks.append(mark(spot, 'last-path', board, flipped, xiangqi));
    }
  }
  if (board.check && onLevel(board.check)) marks.append(mark(board.check, 'check', board, flipped, xiangqi));
  if (view.selected && onLevel(view.selected)) {
    marks.append(mark(view.selected, 'selected', board, flipped, xiangqi));
  }
  for (const spot of view.marks || []) {
    if (onLevel(spot)) marks.append(mark(spot, 'path-choice', board, flipped, xiangqi));
  }
  for (const spot of view.forced || []) {
    if (onLevel(spot)) marks.append(mark(spot, 'forced', board, flipped, xiangqi));
  }
  const path = view.path || { passed: [], taken: [] };
  for (const spot of path.passed) {
    if (onLevel(spot)) marks.append(mark(spot, 'passed', board, flipped, xiangqi));
  }
  for (const spot of path.taken) {
    if (onLevel(spot)) marks.append(mark(spot, 'taken', board, flipped, xiangqi));
  }
  for (const spot of view.premove || []) {
    if (onLevel(spot)) marks.append(mark(spot, 'premove', board, flipped, xiangqi));
  }
  const taken = new Set(path.taken.map(key));
  svg.append(marks);

  // Coordinates (square numbers go over the pieces, in their corner).
  const numbered = board.numbers.length > 0;
  if (!numbered) svg.append(coordinates(view, level));

  // Pieces.
  const pieces = s('g', { class: 'pieces' });
  for (const piece of board.pieces) {
    if (!onLevel(piece.at)) continue;
    const [px, py] = place(piece.at, board, flipped);
    const g = s('g', {
      transform: `translate(${px} ${py})`,
      'data-piece': key(piece.at),
      class: taken.has(key(piece.at)) ? 'taken' : same(piece.at, view.dragging) ? 'dragging' : null,
    });
    g.append(pieceDrawing(game, piece, view.xiangqiStyle, { style: view.chess3dStyle, flipped }));
    pieces.append(g);
  }
  svg.append(pieces);
  if (numbered) svg.append(coordinates(view, level));

  // Legal destinations over the pieces.
  const targets = s('g', { class: 'targets' });
  const occupied = new Set(board.pieces.map((p) => key(p.at)));
  for (const spot of view.targets || []) {
    if (!onLevel(spot)) continue;
    const [px, py] = place(spot, board, flipped);
    if (occupied.has(key(spot))) {
      targets.append(s('circle', { cx: px + 50, cy: py + 50, r: 46, class: 'target capture' }));
    } else {
      targets.append(s('circle', { cx: px + 50, cy: py + 50, r: 15, class: 'target' }));
    }
  }
  svg.append(targets);
  svg.append(annotations(view, level));

  // Hit areas: one per spot, on top, with the spot and its name for tests and readers;
  // rows from the top of the screen, cells from the left. One cell is in the tab
  // order (the focus spot), the arrow keys move between them.
  const hits = s('g', { class: 'hits' });
  const targetKeys = new Set((view.targets || []).map(key));
  for (let row = 0; row < board.height; row++) {
    const line = s('g', { role: 'row' });
    for (let col = 0; col < board.width; col++) {
      const x = flipped ? board.width - 1 - col : col;
      const y = flipped ? row : board.height - 1 - row;
      const spot = [level, x, y];
      const piece = board.pieces.find((p) => same(p.at, spot));
      const selected = same(spot, view.selected);
      line.append(
        cell(spot, 'hit', {
          'data-spot': key(spot),
          'data-name': spotName(board, spot),
          role: 'gridcell',
          tabindex: same(spot, view.focus) ? 0 : -1,
          'aria-selected': selected ? 'true' : 'false',
          'aria-label': view.describe(spot, piece, { selected, target: targetKeys.has(key(spot)) }),
        }),
      );
    }
    hits.append(line);
  }
  svg.append(hits);
  return svg;
}

function mark(spot, cls, board, flipped, xiangqi) {
  const [px, py] = place(spot, board, flipped);
  if (xiangqi || cls === 'check') {
    return s('circle', { cx: px + 50, cy: py + 50, r: cls === 'check' ? 48 : 47, class: `mark ${cls}` });
  }
  // A frame inside the square, so that the neighbours' colours stay as they are.
  if (cls === 'forced') {
    return s('rect', { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, class: `mark ${cls}` });
  }
  return s('rect', { x: px, y: py, width: CELL, height: CELL, class: `mark ${cls}` });
}

// The player's circles and arrows, over the pieces and under the hit areas. An arrow
// between two levels of Ajedrez 3D has no line to follow: a circle on each end.
function annotations(view, level) {
  const { board, flipped } = view;
  const g = s('g', { class: 'annotations', 'aria-hidden': 'true' });
  const centre = (spot) => place(spot, board, flipped).map((v) => v + CELL / 2);
  const circle = (spot) => {
    const [cx, cy] = centre(spot);
    g.append(s('circle', { cx, cy, r: 44, class: 'annotation circle' }));
  };
  for (const { from, to } of view.annotations || []) {
    if (key(from) === key(to)) {
      if (from[0] === level) circle(from);
      continue;
    }
    if (from[0] !== to[0]) {
      for (const spot of [from, to]) if (spot[0] === level) circle(spot);
      continue;
    }
    if (from[0] !== level) continue;
    const [x1, y1] = centre(from);
    const [x2, y2] = centre(to);
    const length = Math.hypot(x2 - x1, y2 - y1);
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    // The shaft stops where the head begins; the head's tip stops short of the centre.
    const tip = [x2 - ux * 18, y2 - uy * 18];
    const base = [tip[0] - ux * 36, tip[1] - uy * 36];
    const wing = (sign) => `${base[0] - uy * 24 * sign},${base[1] + ux * 24 * sign}`;
    g.append(
      s('line', { x1, y1, x2: base[0], y2: base[1], class: 'annotation arrow' }),
      s('polygon', { points: `${tip.join(',')} ${wing(1)} ${wing(-1)}`, class: 'annotation arrow-head' }),
    );
  }
  return g;
}

// The labels of the columns and rows along the edges, as the server names them;
// numbered boards (draughts) write each number in its square's corner instead.
function coordinates(view, level) {
  const { game, board, flipped } = view;
  const g = s('g', { class: 'coords', 'aria-hidden': 'true' });
  const bottomY = flipped ? board.height - 1 : 0;
  const leftX = flipped ? board.width - 1 : 0;
  if (board.numbers.length) {
    board.numbers.forEach((spot, i) => {
      const [px, py] = place(spot, board, flipped);
      g.append(s('text', { x: px + 4, y: py + 17, class: 'coord number' }, String(i + 1)));
    });
    return g;
  }
  // Xiangqi's pieces stand on the points: its labels go outside the grid.
  if (game === 'xiangqi' && view.fileNumbers) {
    for (let x = 0; x < board.width; x++) {
      const [px] = place([0, x, 0], board, flipped);
      const [bottom, top] = flipped ? [BLACK_FILES[x], RED_FILES[x]] : [RED_FILES[x], BLACK_FILES[x]];
      // As far from the grid's edge points above as below: CJK characters stand on
      // the baseline with a small descent.
      g.append(s('text', { x: px + 50, y: board.height * CELL + 26, class: 'coord file-number' }, bottom));
      g.append(s('text', { x: px + 50, y: -4, class: 'coord file-number' }, top));
    }
    return g;
  }
  if (game === 'xiangqi') {
    for (let x = 0; x < board.width; x++) {
      const [px] = place([0, x, 0], board, flipped);
      g.append(s('text', { x: px + 50, y: board.height * CELL + 38, class: 'coord' }, board.column_labels[x]));
    }
    for (let y = 0; y < board.height; y++) {
      const [, py] = place([0, 0, y], board, flipped);
      g.append(s('text', { x: -22, y: py + 58, class: 'coord' }, board.row_labels[y]));
    }
    return g;
  }
  for (let x = 0; x < board.width; x++) {
    const [px, py] = place([level, x, bottomY], board, flipped);
    g.append(s('text', { x: px + 92, y: py + 94, class: 'coord file' }, board.column_labels[x]));
  }
  for (let y = 0; y < board.height; y++) {
    const [px, py] = place([level, leftX, y], board, flipped);
    g.append(s('text', { x: px + 5, y: py + 24, class: 'coord rank' }, board.row_labels[y]));
  }
  return g;
}

// Xiangqi's file numbers by column from the left as red sees the board: each side
// counts the files from its own right, red in Chinese numerals, black in (full-width)
// Arabic ones, as boards print them and as the Chinese move notation writes them.
const RED_FILES = [...'九八七六五四三二一'];
const BLACK_FILES = [...'１２３４５６７８９'];

/** The xiangqi board: nine files, ten ranks, the river and both palaces; the wood
 * reaches `above` beyond the top edge. */
function xiangqiLines(board, flipped, above) {
  const g = s('g', { class: 'xiangqi-board' });
  const c = (x, y) => {
    const [px, py] = place([0, x, y], board, flipped);
    return [px + 50, py + 50];
  };
  g.append(s('rect', { x: -30, y: -above, width: 960, height: 1040 + above, class: 'wood' }));
  const line = (a, b, cls = 'grid') => g.append(s('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: cls }));
  for (let y = 0; y < 10; y++) line(c(0, y), c(8, y));
  for (let x = 0; x < 9; x++) {
    if (x === 0 || x === 8) {
      line(c(x, 0), c(x, 9));
    } else {
      line(c(x, 0), c(x, 4));
      line(c(x, 5), c(x, 9));
    }
  }
  // Palaces.
  line(c(3, 0), c(5, 2));
  line(c(5, 0), c(3, 2));
  line(c(3, 7), c(5, 9));
  line(c(5, 7), c(3, 9));
  // Border.
  g.append(s('rect', { x: 38, y: 38, width: 824, height: 924, class: 'border' }));
  // The river.
  const [, r1] = c(0, 4);
  const [, r2] = c(0, 5);
  const mid = (r1 + r2) / 2;
  const left = flipped ? '漢 界' : '楚 河';
  const right = flipped ? '楚 河' : '漢 界';
  g.append(s('text', { x: 230, y: mid + 14, class: 'river' }, left));
  g.append(s('text', { x: 670, y: mid + 14, class: 'river' }, right));
  return g;
}

/** The spot under a point of the screen, or null. */
export function spotAt(clientX, clientY) {
  const el = document.elementFromPoint(clientX, clientY);
  const hit = el?.closest?.('[data-spot]');
  return hit ? hit.getAttribute('data-spot').split(',').map(Number) : null;
}

/**
 * Clicks and drags on the boards inside `container`, by mouse, pen or touch:
 * `press(spot)` on pointer down, `drop(from, to)` when a drag ends on another spot.
 * `canDrag(spot)` says whether the piece there may be dragged. The right button
 * draws: `annotate(from, to)` where it went down and up, `clear()` when the left one
 * goes down. The listeners go when `signal` is aborted.
 */
export function attachPointer(container, { press, drop, canDrag, annotate, clear }, signal) {
  let drag = null;
  let drawFrom = null;
  const on = (type, listener) => container.addEventListener(type, listener, { signal });
  // The right button draws on the board: no menu over it.
  on('contextmenu', (event) => {
    if (spotAt(event.clientX, event.clientY)) event.preventDefault();
  });
  on('pointerdown', (event) => {
    const spot = spotAt(event.clientX, event.clientY);
    if (!spot) return;
    if (event.button === 2) {
      event.preventDefault();
      drawFrom = spot;
      return;
    }
    if (event.button !== 0) return;
    event.preventDefault();
    clear();
    press(spot);
    if (canDrag(spot)) {
      const piece = container.querySelector(`[data-piece="${key(spot)}"]`);
      const svg = piece?.ownerSVGElement;
      if (piece && svg) {
        drag = { from: spot, piece, svg, origin: piece.getAttribute('transform'), moved: false };
        container.setPointerCapture?.(event.pointerId);
      }
    }
  });
  on('pointermove', (event) => {
    if (!drag) return;
    const ctm = drag.svg.getScreenCTM();
    if (!ctm) return;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    drag.moved = true;
    drag.piece.classList.add('dragging');
    // A finger covers what it holds: on a touch screen the piece rides above it, larger.
    const touch = event.pointerType === 'touch';
    drag.piece.setAttribute(
      'transform',
      touch ? `translate(${point.x - 75} ${point.y - 150}) scale(1.5)` : `translate(${point.x - 50} ${point.y - 50})`,
    );
  });
  const end = (event) => {
    if (event.button === 2 && drawFrom) {
      const to = spotAt(event.clientX, event.clientY);
      if (to) annotate(drawFrom, to);
      drawFrom = null;
      return;
    }
    if (!drag) return;
    const { from, piece, origin, moved } = drag;
    drag = null;
    piece.classList.remove('dragging');
    piece.setAttribute('transform', origin);
    if (!moved) return;
    const to = spotAt(event.clientX, event.clientY);
    if (to && !same(to, from)) drop(from, to);
  };
  on('pointerup', end);
  on('pointercancel', (event) => {
    if (drag) {
      drag.piece.setAttribute('transform', drag.origin);
      drag = null;
    }
    event.preventDefault();
  });
}

/**
 * The spot next to `spot` in a screen direction ('up', 'down', 'left', 'right') on
 * boards drawn with `flipped`, or `spot` itself at the edge. Chess3d's levels sit side
 * by side, lowest on the left (highest when flipped): left and right cross to the
 * next board at its edge.
 */
export function neighbour(spot, direction, board, flipped) {
  const [level, x, y] = spot;
  const sign = flipped ? -1 : 1;
  const last = board.width - 1;
  if (direction === 'up' || direction === 'down') {
    const ny = y + (direction === 'up' ? sign : -sign);
    return ny < 0 || ny >= board.height ? spot : [level, x, ny];
  }
  const step = direction === 'right' ? sign : -sign;
  const nx = x + step;
  if (nx >= 0 && nx <= last) return [level, nx, y];
  const nextLevel = level + step;
  if (nextLevel < 0 || nextLevel >= board.levels) return spot;
  return [nextLevel, step > 0 ? 0 : last, y];
}

// Piece drawings, made for tablero, in a 100×100 box: a chess set, Ajedrez 3D discs
// that show their moves (or the chess set by name), xiangqi discs with Chinese characters, draughts men
// and kings.
import { s } from './dom.js';

const BASE = 'M24 80 H76 Q79 80 79 84 V88 H21 V84 Q21 80 24 80 Z';

// Outlines of each chess piece, then detail lines drawn in the contrasting colour.
const CHESS = {
  p: {
    body: ['M50 18 A12 12 0 1 1 49.9 18 Z', 'M40 44 Q50 39 60 44 L57 56 Q70 64 72 80 H28 Q30 64 43 56 Z', BASE],
    lines: [],
  },
  r: {
    body: ['M28 22 H37 V29 H45 V22 H55 V29 H63 V22 H72 V38 L65 44 V68 L71 74 V80 H29 V74 L35 68 V44 L28 38 Z', BASE],
    lines: ['M35 44 H65', 'M35 68 H65'],
  },
  b: {
    body: [
      'M50 10 A5 5 0 1 1 49.9 10 Z',
      'M50 20 C66 30 68 48 60 60 H40 C32 48 34 30 50 20 Z',
      'M37 60 H63 V67 H37 Z',
      'M40 67 H60 L70 80 H30 Z',
      BASE,
    ],
    lines: ['M50 32 V48', 'M43 40 H57'],
  },
  n: {
    body: [
      'M34 80 C34 66 44 60 46 50 C40 52 34 56 30 54 C24 51 24 46 27 42 L41 28 L43 18 L50 25 C66 26 76 42 74 80 Z',
      BASE,
    ],
    lines: ['M38 38 A2.5 2.5 0 1 1 37.9 38', 'M56 34 C62 44 64 60 62 78'],
  },
  q: {
    body: [
      'M30 70 L20 34 L36 52 L38 26 L50 50 L62 26 L64 52 L80 34 L70 70 Z',
      'M20 34 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0',
      'M38 26 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0',
      'M62 26 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0',
      'M80 34 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0',
      'M30 70 H70 L72 80 H28 Z',
      BASE,
    ],
    lines: ['M32 70 H68'],
  },
  k: {
    body: [
      'M47 8 H53 V15 H60 V21 H53 V29 H47 V21 H40 V15 H47 Z',
      'M50 30 C72 30 80 46 70 68 H30 C20 46 28 30 50 30 Z',
      'M30 68 H70 L72 80 H28 Z',
      BASE,
    ],
    lines: ['M32 68 H68', 'M50 36 V62', 'M36 50 C44 44 56 44 64 50'],
  },
};

/** A chess piece (`kind` p n b r q k) of `side` ('white' or 'black'). */
export function chessPiece(kind, side) {
  const shape = CHESS[kind] || CHESS.p;
  const light = side === 'white';
  return s(
    'g',
    { class: `piece chess ${light ? 'light' : 'dark'}` },
    shape.body.map((d) => s('path', { d, class: 'piece-body' })),
    shape.lines.map((d) => s('path', { d, class: 'piece-line' })),
  );
}

// Ajedrez 3D letters to the chess drawing of the piece's name.
const CHESS3D = { p: 'p', a: 'b', c: 'n', t: 'r', d: 'q', r: 'k' };

// Ajedrez 3D's own pieces: a chess player would move a bishop-shaped alfil diagonally
// and guard the king, so each disc shows its letter and the way it moves instead —
// arrows to the rim for slides (straight for the alfil, diagonal for the torre, both
// for the rey), dots on the squares a step reaches (two per direction for the dama,
// the eight L-squares for the caballo), the pawn's step ahead and its captures behind.
// The dama, the piece whose loss ends the game, wears a gold ring and a crown.
/** One step in each straight, diagonal and knight direction (x right, y up). */
export const STRAIGHT = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];
export const DIAGONAL = [
  [1, -1],
  [1, 1],
  [-1, 1],
  [-1, -1],
];
export const KNIGHT = [
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
];

function arrow(dx, dy, from, to, cls = 'move-arrow') {
  const n = Math.hypot(dx, dy);
  const [ux, uy] = [dx / n, dy / n];
  const [x1, y1, x2, y2] = [50 + ux * from, 50 + uy * from, 50 + ux * to, 50 + uy * to];
  // The head: a triangle on the tip, 7 long and 10 wide.
  const [bx, by] = [x2 - ux * 7, y2 - uy * 7];
  const head = `M${x2} ${y2} L${bx - uy * 5} ${by + ux * 5} L${bx + uy * 5} ${by - ux * 5} Z`;
  return [s('path', { d: `M${x1} ${y1} L${bx} ${by}`, class: cls }), s('path', { d: head, class: `${cls}-head` })];
}

const dot = (x, y, r = 4) => s('circle', { cx: 50 + x, cy: 50 + y, r, class: 'move-dot' });

function chess3dMoves(kind, forwardUp) {
  const ahead = forwardUp ? -1 : 1;
  switch (kind) {
    case 'a':
      return STRAIGHT.map(([x, y]) => arrow(x, y, 23, 40));
    case 't':
      return DIAGONAL.map(([x, y]) => arrow(x, y, 23, 40));
    case 'r':
      return [...STRAIGHT, ...DIAGONAL].map(([x, y]) => arrow(x, y, 24, 40));
    case 'd':
      return [...STRAIGHT, ...DIAGONAL].flatMap(([x, y]) => {
        const n = Math.hypot(x, y);
        return [dot((x / n) * 26, (y / n) * 26, 3.5), dot((x / n) * 35, (y / n) * 35, 3.5)];
      });
    case 'c':
      return KNIGHT.map(([x, y]) => dot(x * 15, y * 15));
    default:
      return [
        arrow(0, ahead, 23, 40),
        arrow(1, -ahead, 25, 40, 'capture-arrow'),
        arrow(-1, -ahead, 25, 40, 'capture-arrow'),
      ];
  }
}

/**
 * An Ajedrez 3D piece (p a c t d r) of `side`. `style` 'moves' draws its letter and its
 * moves (the pawn's ahead is up when `forwardUp`), 'chess' its chess namesake with the
 * letter in a corner.
 */
export function chess3dPiece(kind, side, style = 'moves', forwardUp = side === 'white') {
  if (style === 'chess') {
    const g = chessPiece(CHESS3D[kind] || 'p', side);
    g.append(s('text', { x: 88, y: 22, class: 'piece-letter' }, kind.toUpperCase()));
    return g;
  }
  const royal = kind === 'd';
  return s(
    'g',
    { class: `piece chess3d ${side === 'white' ? 'light' : 'dark'}${royal ? ' royal' : ''}`, 'data-kind': kind },
    s('circle', { cx: 50, cy: 50, r: royal ? 40 : 42, class: 'disc' }),
    royal ? s('circle', { cx: 50, cy: 50, r: 43, class: 'royal-ring' }) : null,
    chess3dMoves(kind, forwardUp),
    royal ? s('path', { d: 'M37 42 L35 26 L43 32 L50 22 L57 32 L65 26 L63 42 Z', class: 'crown' }) : null,
    s('text', { x: 50, y: royal ? 60 : 52, class: `letter${royal ? ' small' : ''}` }, kind.toUpperCase()),
  );
}

const XIANGQI = {
  red: { k: '帥', a: '仕', b: '相', r: '俥', n: '傌', c: '炮', p: '兵' },
  black: { k: '將', a: '士', b: '象', r: '車', n: '馬', c: '砲', p: '卒' },
};
// The WXF letters, as the move list writes them.
const XIANGQI_LETTERS = { k: 'K', a: 'A', b: 'E', r: 'R', n: 'H', c: 'C', p: 'P' };

// Western symbols: the chess drawing of the nearest chess piece (the elephant moves
// diagonally like a bishop), and two drawings of our own for the advisor (a diagonal
// cross: it steps diagonally in the palace) and the cannon.
const XIANGQI_SYMBOLS = {
  a: {
    body: [
      'M26 20 L50 44 L74 20 L80 26 L56 50 L80 74 L74 80 L50 56 L26 80 L20 74 L44 50 L20 26 Z',
      'M50 38 A12 12 0 1 1 49.9 38 Z',
    ],
    lines: [],
  },
  c: {
    body: ['M12 56 L74 24 Q86 19 89 30 Q91 40 81 45 L20 74 Z', 'M40 56 A16 16 0 1 1 39.9 56 Z'],
    lines: ['M40 61 V83', 'M29 72 H51'],
  },
};
const XIANGQI_AS_CHESS = { k: 'k', b: 'b', r: 'r', n: 'n', p: 'p' };

/**
 * A xiangqi piece (k a b r n c p) of 'red' or 'black', in `style` 'chinese'
 * (characters), 'letters' (WXF letters) or 'symbols' (Western drawings).
 */
export function xiangqiPiece(kind, side, style = 'chinese') {
  let face;
  if (style === 'symbols') {
    const shape = XIANGQI_SYMBOLS[kind] || CHESS[XIANGQI_AS_CHESS[kind]] || CHESS.p;
    face = s(
      'g',
      { class: 'symbol', transform: 'translate(14 15) scale(0.72)' },
      shape.body.map((d) => s('path', { d, class: 'piece-body' })),
      shape.lines.map((d) => s('path', { d, class: 'piece-line' })),
    );
  } else {
    const label = style === 'letters' ? XIANGQI_LETTERS[kind] : (XIANGQI[side] || XIANGQI.black)[kind];
    face = s('text', { x: 50, y: 52, class: `glyph${style === 'letters' ? ' letter' : ''}` }, label);
  }
  return s(
    'g',
    { class: `piece xiangqi ${side}` },
    s('circle', { cx: 50, cy: 50, r: 44, class: 'disc' }),
    s('circle', { cx: 50, cy: 50, r: 37, class: 'ring' }),
    face,
  );
}

/** A draughts man (`m`) or king (`k`) of 'white' or 'black'. */
export function draughtsPiece(kind, side) {
  return s(
    'g',
    { class: `piece draughts ${side}` },
    s('circle', { cx: 53, cy: 58, r: 34, class: 'disc-edge' }),
    s('circle', { cx: 53, cy: 53, r: 34, class: 'disc' }),
    s('circle', { cx: 53, cy: 53, r: 23, class: 'ring' }),
    kind === 'k' ? s('path', { d: 'M38 61 L36 45 L45 52 L53 40 L61 52 L70 45 L68 61 Z', class: 'crown' }) : null,
  );
}

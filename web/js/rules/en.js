// The rules pages in English: what docs/*rules*.md and the Ajedrez 3D rule book say,
// for players.

// The rows of the draughts table, by rule set id.
const RULE_SETS = ['international', 'english', 'brazilian', 'russian', 'spanish', 'italian'];

export default {
  title: 'Rules',
  games_label: 'Games',
  diagrams: {
    'chess.k': 'King: one square in any direction.',
    'chess.q':
      'Queen: any distance along rows, columns and diagonals; it stops at its own pawn on d6 and can take the knight on f6.',
    'chess.r': 'Rook: any distance along its row and column; it can take the knight on f4.',
    'chess.b': 'Bishop: any distance diagonally; it can take the knight on b2.',
    'chess.n':
      'Knight: an L, two squares one way and one sideways, jumping over pieces; never onto its own piece (c6).',
    'chess.p':
      'Pawn: one square ahead, two from its starting square; it captures one square diagonally ahead (d3, f3).',
    'xiangqi.k': 'General: one point along a line, inside its palace.',
    'xiangqi.a': 'Advisor: one point diagonally, inside its palace.',
    'xiangqi.b':
      'Elephant: two points diagonally, not over a piece (the horse on f3 blocks g4), never across the river.',
    'xiangqi.n':
      'Horse: one point straight, then one diagonally outwards; a piece next to it blocks that way (the soldier on e5).',
    'xiangqi.r': 'Chariot: any distance along a line; it can take the soldier on e6.',
    'xiangqi.c':
      'Cannon: moves like a chariot, but captures only by jumping exactly one piece (the screen): e8 over e6, a4 over b4.',
    'xiangqi.p': 'Soldier: one point forward; after crossing the river also one point sideways. Never backwards.',
    'draughts.m': 'Man: one square diagonally forward, to an empty square.',
    'draughts.capture':
      'A capture jumps an opposing piece next to it onto the empty square beyond. Captures are compulsory; men capture backwards too where the rule set allows it.',
    'draughts.k': 'King: diagonally in any direction; a flying king goes any distance, a short king one square.',
    'chess3d.a':
      'Alfil: slides straight along rows and columns (not diagonally!). With another alfil of its side on one of its diagonals (F2) it may also go one level up or down.',
    'chess3d.t':
      'Torre: slides diagonally (not straight!); stopped by its own pawn on F6. With another torre in its row or column (D8) it may also change level.',
    'chess3d.c':
      'Caballo: an L, but it walks the long side first and cannot jump: its pawn on C4 blocks B3 and B5. No level moves.',
    'chess3d.d':
      'Dama: one or two squares in any direction, jumping over the square between. With its rey next to it (C3) it may change level. Lose it and you lose the game.',
    'chess3d.r':
      'Rey: slides any distance in all eight directions, and may always go one level up or down to an empty square.',
    'chess3d.p':
      'Peón: one square ahead; captures one square diagonally backwards (C3, C5); with a pawn of its side on the same square of another level, and off its start row, it may also step diagonally ahead (E3, E5).',
  },
  games: {
    chess: [
      {
        h: 'How the pieces move',
        body: [
          'White moves first, then the players alternate. A piece moves to an empty square or captures an opposing piece by taking its square. Only the knight jumps over other pieces.',
          [
            'Castling: the king goes two squares towards a rook, which jumps to the square the king crossed. Not if the king or that rook has moved, if the king is in check, passes or lands on an attacked square, or if a piece stands between them.',
            'En passant: a pawn that has just moved two squares can be taken by an opposing pawn beside it, as if it had moved one square — on the very next move only.',
            'Promotion: a pawn reaching the last rank becomes a queen, rook, bishop or knight of its player’s choice.',
            'Chess960: the pieces of the back rank start in one of 960 shuffled orders (the king between the rooks, bishops on both colours). Castling ends with king and rook on the same squares as in standard chess.',
          ],
        ],
        pieces: true,
      },
      {
        h: 'How a game ends',
        body: [
          [
            'Checkmate: the king is attacked (check) and no move saves it. The side that mates wins.',
            'Stalemate: the side to move is not in check and has no legal move. A draw.',
            'Dead position: neither side can checkmate by any series of legal moves (for example king against king and bishop). A draw at once.',
            'Threefold repetition or fifty moves by each side without a capture or pawn move: the player to move may claim a draw (the “Claim draw” button). The fifth repetition and seventy-five moves end the game as a draw without a claim.',
            'Resignation loses; a draw may be offered and accepted at any time.',
            'A player whose time runs out loses — unless the opponent cannot checkmate by any series of legal moves: then it is a draw. A resignation in that case is a draw too.',
          ],
        ],
      },
      {
        h: 'How moves are written',
        body: [
          'The move list uses standard algebraic notation (SAN): the piece letter (K, Q, R, B, N; none for a pawn), x for a capture and the square, e.g. Nf3, exd5, Qxf7#. Castling is O-O (king side) and O-O-O; promotion e8=Q; + marks check, # mate. Squares are named by file a–h and rank 1–8 from White’s side.',
          'The move box also takes coordinates (UCI): g1f3, e7e8q. Games are exported in PGN.',
        ],
      },
    ],
    xiangqi: [
      {
        h: 'How the pieces move',
        body: [
          'Xiangqi is played on the 90 points of a 9 × 10 board; the river crosses its middle and each side has a palace of 3 × 3 points. Red moves first. A piece captures by moving onto an opposing piece.',
          'The two generals may never face each other on an open file, and no move may leave one’s own general attacked.',
        ],
        pieces: true,
      },
      {
        h: 'How a game ends',
        body: [
          [
            'Checkmate: the side whose general is attacked and cannot escape loses.',
            'No legal move loses too: in xiangqi stalemate is a loss, not a draw.',
            'Repetition: when the same position (same pieces on the same points, same side to move) occurs a third time, the game is ruled automatically. A side that checked on every one of its moves of the cycle (perpetual check) loses; else a side that chased one and the same piece on every move (perpetual chase) loses; if both sides do the same, or neither, it is a draw.',
            'Chasing means threatening to win an unprotected piece (a chariot may not be chased by a horse or cannon even when protected). Threats by the general or by soldiers, mate threats, and threats to the general or to soldiers that have not crossed the river are allowed (AXF/WXF Asian rules).',
            'Sixty moves by each side without a capture: a draw (of each side’s checks only the first ten count).',
            'Resignation, an agreed draw or a flag fall end the game; running out of time always loses.',
          ],
        ],
      },
      {
        h: 'How moves are written',
        body: [
          'The move list uses WXF notation: the piece letter (K general, A advisor, E elephant, H horse, R chariot, C cannon, P soldier), the file it stands on counted from the mover’s right (1–9), then + forward, - backward or . sideways, and the file reached (or the number of points for straight moves): C2.5, H8+7, R1-2. Two like pieces on a file are told apart by + (front) and - (rear).',
          'The “Chinese move notation” setting shows the same moves in Chinese: 炮二平五 (Red counts files with Chinese numerals, Black with digits: 马８进７). The move box also takes ICCS coordinates: h2e2.',
        ],
      },
    ],
    draughts: [
      {
        h: 'How the pieces move',
        body: [
          'Draughts is played on the dark squares. Men move one square diagonally forward; a man reaching the far row is crowned king (in International and Brazilian draughts only if the move ends there). Captures are compulsory, and a capture goes on as long as the capturing piece can jump again: the whole sequence is one move. No piece is jumped twice, and captured pieces are removed only when the move is over.',
          'A player with no legal move — no pieces left, or all blocked — loses.',
          {
            variants: RULE_SETS,
            rows: [
              ['Rule set', 'Board, first move', 'Men capture', 'Kings', 'Which capture'],
              ['International', '10 × 10, White', 'forwards and backwards', 'flying', 'the most pieces'],
              ['English (checkers)', '8 × 8, Black', 'forwards', 'one square', 'free choice'],
              ['Brazilian', '8 × 8, White', 'forwards and backwards', 'flying', 'the most pieces'],
              [
                'Russian',
                '8 × 8, White',
                'forwards and backwards',
                'flying',
                'free choice; a man crowned during a capture goes on as a king',
              ],
              ['Spanish', '8 × 8 mirrored, White', 'forwards', 'flying', 'the most pieces, then the most kings'],
              [
                'Italian',
                '8 × 8 mirrored, White',
                'forwards; never kings',
                'one square',
                'most pieces, then with a king, most kings, a king met first',
              ],
            ],
          },
        ],
        pieces: true,
      },
      {
        h: 'How a game ends',
        body: [
          [
            'The player who cannot move — all pieces taken or blocked — loses.',
            'The third repetition of a position is a draw.',
            'Moves without a capture or a man’s move end in a draw: 25 each (International), 20 (Brazilian), 15 (Russian), 40 (English, Spanish, Italian).',
            'Special endings, International: three kings (or two kings and a man, or a king and two men) against a lone king are drawn after 16 more moves each, two kings or less against a lone king after 5. Russian: three kings or more against a lone king after 15 moves; when both sides have kings, after 30 moves (4–5 pieces) or 60 (6–7 pieces) without a capture or crowning.',
            'Resignation, an agreed draw or running out of time end the game; a flag fall always loses.',
          ],
        ],
      },
      {
        h: 'How moves are written',
        body: [
          'Squares carry the PDN numbers printed on them, from 1 on the far side. A move is written from-to: 32-28; a capture with x: 28x19, or every landing square (26x17x8) when two captures share their start and end.',
          'The move box also takes algebraic squares (c3-d4, c3:e5), as Russian players write them. Positions are PDN FEN: W:W21,22,K32:B1,2,3.',
        ],
      },
    ],
    chess3d: [
      {
        h: 'The board',
        body: [
          'Three 8 × 8 boards: levels 0 (bottom), 1 and 2 (top). Rows are letters A–H counted from White’s side, columns digits 1–8: C4 is row C, column 4, and 0-C4 that square on level 0. Black moves first.',
          'Several pieces move unlike their chess namesakes — the alfil goes straight, the torre diagonally, the rey like a chess queen — and the piece to protect is the dama, not the rey. The pieces on the board therefore show their moves: arrows for slides, dots for steps, red dashed arrows for the pawn’s backward captures, a gold ring and crown on the dama.',
          'A level move goes straight up or down one level to the same row and column; it never captures (the square must be empty). Each piece has its own condition for it.',
        ],
      },
      {
        h: 'How the pieces move',
        body: [
          'Pawn promotion: a pawn reaching its far row (H for White, A for Black) on level 0 or 1 climbs to a random empty square of the level above, still a pawn; on level 2 it becomes a random alfil, caballo or torre placed on a random empty square of level 0. The random draws come from the game’s own seed, so a saved game replays identically.',
        ],
        pieces: true,
      },
      {
        h: 'How a game ends',
        body: [
          [
            'Capturing the opposing dama wins at once. There is no check or checkmate: the rey can be taken like any piece.',
            'Timed games have one clock for the whole game; when it runs out, the side with more pieces on the board (all levels) wins, equal numbers draw.',
            'A side with no legal move: draw. 100 plies (50 moves each) without a capture or pawn move: draw. The same position a third time: draw.',
            'Resignation loses; a draw may be agreed.',
          ],
        ],
      },
      {
        h: 'How moves are written',
        body: [
          'The move list writes each move as coordinates: level and square left, level and square reached, 0B5-0C5; a level move is 0A1-1A1.',
          'The move box also takes the short form: piece letter, level and destination, P-0-C4 (P peón, A alfil, C caballo, T torre, D dama, R rey). When several pieces of that kind can go there, the first in reading order moves (level 0 before 1 and 2, row A before H, column 1 before 8).',
        ],
      },
    ],
  },
};

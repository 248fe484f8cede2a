// The page's own board model and the rule checks it needs to referee a game.
//
// Coordinates are the protocol's: x the column, y the row, both from 0. Black moves first and
// colours alternate, so a stone's colour follows from its index in `moves`.
//
// What wins mirrors the brain's rules module (src/rules.rs):
//   freestyle  five or more in a row
//   standard   exactly five (an overline is no win, for either colour)
//   renju      black: exactly five; white: five or more
//   caro       exactly five, not closed by the opponent at both ends (the board's edge is open)
// Renju's forbidden points for black are not recomputed here: the page asks the brain
// (`YXSHOWFORBID`) and referees with that list, so the one implementation decides.

export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;

export const MIN_SIZE = 5;
export const MAX_SIZE = 32;

/** Rule names in the order the page offers them, with their `INFO rule` value. */
export const RULES = [
  { name: 'freestyle', bits: 0, label: 'Freestyle (five or more)' },
  { name: 'standard', bits: 1, label: 'Standard (exactly five)' },
  { name: 'renju', bits: 4, label: 'Renju (black: forbidden points)' },
  { name: 'caro', bits: 8, label: 'Caro (five, not blocked at both ends)' },
];

export function ruleBits(name) {
  const r = RULES.find((r) => r.name === name);
  if (!r) throw new Error(`unknown rule ${name}`);
  return r.bits;
}

export function opponent(color) {
  return color === BLACK ? WHITE : BLACK;
}

export function colorName(color) {
  return color === BLACK ? 'black' : 'white';
}

const DIRECTIONS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

export class Board {
  constructor(size) {
    if (!Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) {
      throw new Error(`board size ${size} is not in ${MIN_SIZE}..${MAX_SIZE}`);
    }
    this.size = size;
    this.cells = new Uint8Array(size * size);
    /** Stones in the order played: {x, y}. */
    this.moves = [];
  }

  clone() {
    const b = new Board(this.size);
    b.cells.set(this.cells);
    b.moves = this.moves.map((m) => ({ ...m }));
    return b;
  }

  inside(x, y) {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this.size && y < this.size;
  }

  at(x, y) {
    return this.inside(x, y) ? this.cells[y * this.size + x] : EMPTY;
  }

  sideToMove() {
    return this.moves.length % 2 === 0 ? BLACK : WHITE;
  }

  colorOf(index) {
    return index % 2 === 0 ? BLACK : WHITE;
  }

  last() {
    return this.moves.length ? this.moves[this.moves.length - 1] : null;
  }

  isFull() {
    return this.moves.length === this.size * this.size;
  }

  /** Why (x, y) cannot take the next stone, or null when it can. */
  whyNot(x, y) {
    if (!this.inside(x, y)) return `${x},${y} is outside the ${this.size}x${this.size} board`;
    if (this.at(x, y) !== EMPTY) return `${x},${y} is occupied`;
    return null;
  }

  /** Places the side to move's stone; throws if the point is not free. */
  play(x, y) {
    const why = this.whyNot(x, y);
    if (why) throw new Error(why);
    const color = this.sideToMove();
    this.cells[y * this.size + x] = color;
    this.moves.push({ x, y });
    return color;
  }

  undo() {
    const m = this.moves.pop();
    if (m) this.cells[m.y * this.size + m.x] = EMPTY;
    return m || null;
  }

  /** Stones of `color` in a row from (x, y) stepping (dx, dy), not counting (x, y). */
  run(x, y, dx, dy, color) {
    let n = 0;
    for (let cx = x + dx, cy = y + dy; this.at(cx, cy) === color && this.inside(cx, cy); cx += dx, cy += dy) n++;
    return n;
  }
}

/** Whether a run of `len` stones of `color` wins under `rule`, caro's ends aside. */
export function runWins(rule, len, color) {
  switch (rule) {
    case 'freestyle':
      return len >= 5;
    case 'standard':
    case 'caro':
      return len === 5;
    case 'renju':
      return len === 5 || (len > 5 && color === WHITE);
    default:
      throw new Error(`unknown rule ${rule}`);
  }
}

/**
 * The winning line made by the stone at (x, y), as a list of points, or null. The stone must be
 * on the board.
 */
export function winningLine(board, x, y, rule) {
  const color = board.at(x, y);
  if (color === EMPTY) return null;
  for (const [dx, dy] of DIRECTIONS) {
    const fwd = board.run(x, y, dx, dy, color);
    const back = board.run(x, y, -dx, -dy, color);
    const len = 1 + fwd + back;
    if (!runWins(rule, len, color)) continue;
    if (rule === 'caro') {
      const blocked = (k) => {
        const cx = x + dx * k;
        const cy = y + dy * k;
        return board.inside(cx, cy) && board.at(cx, cy) === opponent(color);
      };
      if (blocked(fwd + 1) && blocked(-back - 1)) continue;
    }
    const line = [];
    for (let k = -back; k <= fwd; k++) line.push({ x: x + dx * k, y: y + dy * k });
    return line;
  }
  return null;
}

/**
 * Referees the stone just played (the last move): `null` while the game goes on, else
 * `{winner, reason, line}` with winner BLACK, WHITE or EMPTY (a draw). `forbidden` is the list
 * of renju forbidden points for black that held before the move (from the brain).
 */
export function judgeLast(board, rule, forbidden = []) {
  const m = board.last();
  if (!m) return null;
  const color = board.colorOf(board.moves.length - 1);
  const line = winningLine(board, m.x, m.y, rule);
  if (line) return { winner: color, reason: 'five', line };
  // A five has priority; otherwise a forbidden point loses at once (the brain's list never
  // holds a point that makes exactly five).
  if (rule === 'renju' && color === BLACK && forbidden.some((p) => p.x === m.x && p.y === m.y)) {
    return { winner: WHITE, reason: 'forbidden', line: [m] };
  }
  if (board.isFull()) return { winner: EMPTY, reason: 'full', line: [] };
  return null;
}

/** Parses a protocol point `x,y`; null if it is not one. */
export function parsePoint(text) {
  const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(text);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
}

export function pointText(p) {
  return `${p.x},${p.y}`;
}

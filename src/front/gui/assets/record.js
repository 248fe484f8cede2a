// Game records in the formats the arena writes and reads (src/front/arena/record.rs, openings.rs):
//   psq       Piskvork's PSQ: `Piskvorky NxN, 11:11, 0`, one `x,y,ms` line per stone with
//             1-based coordinates and the move's time in ms, then `-1`, black's and white's
//             names, and a last `-1`.
//   moves     our openings format: `x,y x,y ...`, 0-based, black first.
//   offset    Piskvork's / c-gomoku-cli's openings: `dx,dy, dx,dy, ...` from the centre
//             (size/2 rounded down).
// parseRecord reads any of them (detected as the arena does) into {size, moves}.

export const FORMATS = [
  { name: 'psq', label: 'PSQ (Piskvork, as the arena writes games)', ext: 'psq' },
  { name: 'moves', label: 'moves x,y x,y … (0-based)', ext: 'txt' },
  { name: 'offset', label: 'offsets from the centre dx,dy, …', ext: 'txt' },
];

/** `game`: {size, moves: [{x, y}], times: [ms], black, white}. */
export function formatRecord(format, game) {
  switch (format) {
    case 'psq': {
      let s = `Piskvorky ${game.size}x${game.size}, 11:11, 0\n`;
      game.moves.forEach((m, i) => {
        const ms = Math.max(0, Math.round((game.times && game.times[i]) || 0));
        s += `${m.x + 1},${m.y + 1},${ms}\n`;
      });
      s += `-1\n${game.black}\n${game.white}\n-1\n`;
      return s;
    }
    case 'moves':
      return game.moves.map((m) => `${m.x},${m.y}`).join(' ') + '\n';
    case 'offset': {
      const c = Math.floor(game.size / 2);
      return game.moves.map((m) => `${m.x - c},${m.y - c},`).join(' ') + '\n';
    }
    default:
      throw new Error(`unknown record format ${format}`);
  }
}

function numbersOf(line) {
  const tokens = line.split(/[\s,]+/).filter((t) => t.length > 0);
  return tokens.map((t) => {
    if (!/^-?\d+$/.test(t)) throw new Error(`bad number "${t}"`);
    return Number(t);
  });
}

/**
 * Reads a record. `size` is the board size for the formats that do not state it. Returns
 * {size, moves, times, format}; throws with a reason on malformed text or a point off the board.
 */
export function parseRecord(text, size) {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'));
  if (lines.length === 0) throw new Error('the record is empty');
  let result;
  const head = /^Piskvorky\s+(\d+)\s*x\s*(\d+)/i.exec(lines[0]);
  if (head) {
    const w = Number(head[1]);
    const h = Number(head[2]);
    if (w !== h) throw new Error(`only square boards are supported, not ${w}x${h}`);
    const moves = [];
    const times = [];
    for (const line of lines.slice(1)) {
      if (line === '-1') break;
      const n = numbersOf(line);
      if (n.length < 2) throw new Error(`bad PSQ line "${line}"`);
      moves.push({ x: n[0] - 1, y: n[1] - 1 });
      times.push(n.length > 2 ? Math.max(0, n[2]) : 0);
    }
    result = { size: w, moves, times, format: 'psq' };
  } else {
    const body = lines.join(' ');
    // The arena's rule: negative numbers or a comma after a pair mean offsets.
    const offset = body.includes('-') || /,\s/.test(body) || body.endsWith(',');
    const n = numbersOf(body);
    if (n.length % 2 !== 0) throw new Error('odd number of coordinates');
    const c = Math.floor(size / 2);
    const moves = [];
    for (let i = 0; i < n.length; i += 2) {
      moves.push(offset ? { x: n[i] + c, y: n[i + 1] + c } : { x: n[i], y: n[i + 1] });
    }
    result = { size, moves, times: moves.map(() => 0), format: offset ? 'offset' : 'moves' };
  }
  result.moves.forEach((m, i) => {
    if (m.x < 0 || m.y < 0 || m.x >= result.size || m.y >= result.size) {
      throw new Error(`stone ${i + 1} (${m.x},${m.y}) is outside the ${result.size}x${result.size} board`);
    }
  });
  return result;
}

// The position database on the board: the file the brain opens (`YXSETDATABASE path`), the
// records of the current position's children (`YXQUERYDATABASEALL` + moves + `DONE`), drawn on
// the cells their moves lead from, and labels written from the page (`YXEDITLABELDATABASE X,Y
// text` + moves + `DONE`). See the module docs of src/front/protocol/database.rs for the formats.
//
// Invariants: the page only speaks protocol lines (through the EngineLink it is handed, inside
// the page's serial queue, so never while the brain thinks); moves are sent `x,y`, so the
// records come back `x y`; `records` belong to the position `key` and are shown only while the
// board is at that position; a refused command (`ERROR …`) changes nothing here but `note`.

// `MESSAGE DATABASE x y tag value depth bound hastext label…` (the label may hold spaces).
const RECORD_RE = /^MESSAGE DATABASE (\d+) (\d+) (-?\d+) (-?\d+) (-?\d+) (\d+) ([01])(?: (.*))?$/;

/** A proven value, as the brain writes it in a reply's numeric field. */
const PROVEN = 30000;

/** One child record line → {x, y, value, depth, bound, hasText, label}, or null. */
export function parseRecordLine(line) {
  const m = RECORD_RE.exec(line);
  if (!m) return null;
  return {
    x: Number(m[1]),
    y: Number(m[2]),
    value: Number(m[4]),
    depth: Number(m[5]),
    bound: Number(m[6]),
    hasText: m[7] === '1',
    label: m[8] || '',
  };
}

/**
 * What a cell shows for a record: its label (the brain already turns a proven value into W, L
 * or D when there is no label), else the stored score from the mover's side (the record's value
 * is its own side to move's, the opponent of whoever plays the cell), else nothing.
 */
export function cellText(r) {
  if (r.label) return r.label;
  if (r.bound === 0) return '';
  const mover = -r.value;
  return mover > 0 ? `+${mover}` : String(mover);
}

/** The tooltip of a record's cell: the move, its label, value and depth. */
export function cellTitle(r) {
  const parts = [`${r.x},${r.y}`];
  if (r.label) parts.push(`label ${r.label}`);
  if (r.bound !== 0) {
    const mover = -r.value;
    if (Math.abs(mover) >= PROVEN) parts.push(`a proven ${mover > 0 ? 'win' : 'loss'} for the mover`);
    else parts.push(`value ${mover} for the mover`, `depth ${r.depth}`);
  }
  if (r.hasText) parts.push('has text');
  return parts.join(' · ');
}

function movesBody(moves) {
  return moves.map((m) => `${m.x},${m.y}`);
}

export class PositionDatabase {
  constructor() {
    /** The path the brain has open, or null. */
    this.path = null;
    /** The last reply or refusal, for the page to show. */
    this.note = '';
    /** The position key `records` were read for, or null. */
    this.key = null;
    /** [{x, y, value, depth, bound, hasText, label}] */
    this.records = [];
  }

  get open() {
    return this.path !== null;
  }

  /** `YXSETDATABASE path`; on a refusal the previous state (and file) stays. */
  async openFile(link, path) {
    const p = path.trim();
    if (!p) throw new Error('database: give the path of a file to open');
    try {
      const reply = await link.request(`YXSETDATABASE ${p}`, 'dbopen');
      this.path = p;
      this.note = reply.line.replace(/^MESSAGE /, '');
      this.key = null;
      this.records = [];
    } catch (e) {
      this.note = `database not opened: ${e.message}`;
      throw e;
    }
  }

  /** A new session knows no database: the page forgets its records (the path stays to reopen). */
  async reopen(link) {
    this.key = null;
    this.records = [];
    if (this.path === null) return;
    const path = this.path;
    this.path = null;
    await this.openFile(link, path);
  }

  /** Reads the children's records of the position `moves` (key `key`), unless already read. */
  async refresh(link, moves, key) {
    if (!this.open || this.key === key) return;
    const reply = await link.request(['YXQUERYDATABASEALL', ...movesBody(moves), 'DONE'].join('\n'), 'dbquery');
    this.records = reply.lines.map(parseRecordLine).filter((r) => r !== null);
    this.key = key;
  }

  /** Writes `text` as the label of the move `at` in the position `moves`, then rereads. */
  async writeLabel(link, moves, key, at, text) {
    if (!this.open) throw new Error('database: open a database first');
    const label = text.trim();
    await link.request([`YXEDITLABELDATABASE ${at.x},${at.y} ${label}`, ...movesBody(moves), 'DONE'].join('\n'), 'dblabel');
    this.note = `label ${JSON.stringify(label)} written at ${at.x},${at.y}`;
    this.key = null;
    await this.refresh(link, moves, key);
  }

  /** The marks to draw on the board at position `key`: [{x, y, text, title}]. */
  marks(key) {
    if (!this.open || this.key !== key) return [];
    return this.records.map((r) => ({ x: r.x, y: r.y, text: cellText(r), title: cellTitle(r) })).filter((m) => m.text);
  }
}

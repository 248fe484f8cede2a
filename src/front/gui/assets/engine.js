// The link to the brain: protocol lines over the WebSocket at /ws (one text frame per line
// each way), replies paired with the commands that asked for them, and a parser for what the
// brain prints while it thinks.
//
// Pairing: the brain answers in order and only some commands have a reply (`START` OK, a move
// for `BEGIN`/`TURN`/`BOARD`/`YXNBEST`, `OK` for `TAKEBACK`, `FORBID …` for `YXSHOWFORBID`, the
// ABOUT line). `request` queues such a command's expectation; `send` is for commands with no
// reply (`INFO`, `YXBOARD`, `YXSTOP`). `ERROR`/`UNKNOWN` fail the oldest pending request.
// `MESSAGE`, `DEBUG` and `INFO` lines go to `onOutput` parsed, except the database commands'
// replies, which are `MESSAGE` lines themselves (`MESSAGE_REPLY`): those are offered to a
// pending database request first.

const REPLY = {
  ok: (l) => l === 'OK',
  move: (l) => /^\d+,\d+$/.test(l),
  forbid: (l) => /^FORBID\b/i.test(l),
  about: (l) => /^name=/.test(l),
};

// Replies that are `MESSAGE` lines: `end` is the final line; `part` lines before it (a
// multi-line reply's body) are collected into the reply's `lines`.
const MESSAGE_REPLY = {
  dbopen: { end: (l) => /^MESSAGE database .* opened \(\d+ positions(, read-only)?\)$/.test(l) },
  dblabel: { end: (l) => /^MESSAGE database label at \d+,\d+ saved$/.test(l) },
  dbquery: { end: (l) => l === 'MESSAGE DATABASE DONE', part: (l) => /^MESSAGE DATABASE /.test(l) },
};

export class EngineLink {
  constructor(url, { onOutput = () => {}, onLog = () => {}, onState = () => {} } = {}) {
    this.url = url;
    this.onOutput = onOutput;
    this.onLog = onLog;
    this.onState = onState;
    this.pending = [];
    this.ws = null;
    this.open = false;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.onopen = () => {
        this.open = true;
        this.onState('open');
        resolve();
      };
      ws.onmessage = (ev) => this.receive(String(ev.data));
      ws.onerror = () => {
        if (!this.open) reject(new Error(`cannot connect to ${this.url}`));
      };
      ws.onclose = () => {
        const was = this.open;
        this.open = false;
        for (const p of this.pending.splice(0)) p.reject(new Error('the connection to the brain closed'));
        this.onState('closed', was);
      };
    });
  }

  close() {
    if (this.ws) this.ws.close();
  }

  send(line) {
    if (!this.open) throw new Error('not connected to the brain');
    this.onLog('>', line);
    this.ws.send(line);
  }

  /** Sends `line` (may hold several lines) and resolves with its reply of kind `kind`. */
  request(line, kind) {
    const message = MESSAGE_REPLY[kind] || null;
    const test = message ? message.end : REPLY[kind];
    if (!test) throw new Error(`unknown reply kind ${kind}`);
    return new Promise((resolve, reject) => {
      this.pending.push({ test, message, lines: [], kind, line, resolve, reject, sent: performance.now() });
      try {
        this.send(line);
      } catch (e) {
        this.pending.pop();
        reject(e);
      }
    });
  }

  receive(line) {
    this.onLog('<', line);
    const head = this.pending[0];
    if (/^(ERROR|UNKNOWN)\b/.test(line)) {
      if (head) {
        this.pending.shift();
        head.reject(new Error(line));
      } else {
        this.onOutput({ type: 'error', text: line });
      }
      return;
    }
    if (head && head.message && head.message.part && head.message.part(line) && !head.test(line)) {
      head.lines.push(line);
      return;
    }
    if (/^(MESSAGE|DEBUG|INFO)\b/.test(line) && !(head && head.message && head.test(line))) {
      this.onOutput(parseOutput(line));
      return;
    }
    if (head && head.test(line)) {
      this.pending.shift();
      head.resolve({ line, lines: head.lines, ms: performance.now() - head.sent });
      return;
    }
    this.onOutput({ type: 'stray', text: line });
  }
}

/**
 * A score as the brain prints it: a number (centi-stones, the side to move's view), `win N` or
 * `loss N` (plies to the winning stone). Returns {kind: 'cp'|'win'|'loss', value, text}.
 */
export function parseScore(text) {
  const t = String(text).trim();
  let m = /^(win|loss)\s+(\d+)$/i.exec(t);
  if (m) return { kind: m[1].toLowerCase(), value: Number(m[2]), text: t };
  m = /^[+-]?\d+(\.\d+)?$/.exec(t);
  if (m) return { kind: 'cp', value: Number(t), text: t };
  return { kind: 'other', value: 0, text: t };
}

/**
 * Win rate for display, 0..1, from a score: proven wins and losses are 1 and 0; other scores
 * go through a logistic curve, 1 / (1 + e^(-score / 1000)), a rough reading of the brain's
 * scale (a tempo is about 700). A brain that prints `INFO WINRATE` is believed instead.
 */
export function winRate(score) {
  if (!score) return null;
  if (score.kind === 'win') return 1;
  if (score.kind === 'loss') return 0;
  if (score.kind !== 'cp') return null;
  return 1 / (1 + Math.exp(-score.value / 1000));
}

export function scoreText(score) {
  if (!score) return '';
  if (score.kind === 'win') return `win in ${score.value}`;
  if (score.kind === 'loss') return `loss in ${score.value}`;
  return score.text;
}

function points(text) {
  return String(text || '')
    .trim()
    .split(/\s+/)
    .filter((t) => /^\d+,\d+$/.test(t))
    .map((t) => {
      const [x, y] = t.split(',').map(Number);
      return { x, y };
    });
}

const SCORE = '(win \\d+|loss \\d+|[+-]?\\d+)';
const DEPTH_RE = new RegExp(`^MESSAGE depth (\\d+) score ${SCORE} nodes (\\d+) nps (\\d+) time (\\d+) pv ?(.*)$`);
const SMP_RE = new RegExp(
  `^MESSAGE smp workers (\\d+) depth (\\d+) score ${SCORE} nodes (\\d+) nps (\\d+) time (\\d+) worker (\\d+).*? pv ?(.*)$`,
);
const NBEST_RE = /^MESSAGE \((\d+)\)\s+(.+?)\s*\|\s*(\d+)(?:-(\d+))?\s*\|\s*(.*)$/;

/**
 * One line the brain printed besides its replies, as an event:
 *   depth     {depth, score, nodes, nps, time, pv}       a completed iteration
 *   summary   {workers, depth, score, nodes, nps, time, pv}  lazy SMP's final line
 *   book      {move}                                    a book move
 *   proof     {kind: 'vcf'|'vct', move, text}           a proved win, played at once
 *   defend    {plies, moves}                            the opponent has a VCF; these break it
 *   realtime  {what: 'POS'|'DONE'|'BEST'|'LOST', move}  live board markers
 *   refresh   {}                                        markers restart (an iteration completed)
 *   nbest     {index, score, depth, seldepth, pv}       one multi-PV line
 *   info      {key, value}                              one line of an `INFO` block
 *   note      {text}                                    anything else
 */
export function parseOutput(line) {
  let m = DEPTH_RE.exec(line);
  if (m) {
    return {
      type: 'depth',
      depth: Number(m[1]),
      score: parseScore(m[2]),
      nodes: Number(m[3]),
      nps: Number(m[4]),
      time: Number(m[5]),
      pv: points(m[6]),
    };
  }
  m = SMP_RE.exec(line);
  if (m) {
    return {
      type: 'summary',
      workers: Number(m[1]),
      depth: Number(m[2]),
      score: parseScore(m[3]),
      nodes: Number(m[4]),
      nps: Number(m[5]),
      time: Number(m[6]),
      pv: points(m[8]),
    };
  }
  m = /^MESSAGE book (\d+,\d+)/.exec(line);
  if (m) return { type: 'book', move: points(m[1])[0] };
  m = /^MESSAGE (vcf|vct) win .*playing (\d+,\d+)/.exec(line);
  if (m) return { type: 'proof', kind: m[1], move: points(m[2])[0], text: line.slice(8) };
  m = /^MESSAGE opponent vcf in (\d+) plies; breakers ?(.*)$/.exec(line);
  if (m) return { type: 'defend', plies: Number(m[1]), moves: points(m[2]) };
  m = /^MESSAGE REALTIME (POS|DONE|BEST|LOST) (\d+,\d+)/i.exec(line);
  if (m) return { type: 'realtime', what: m[1].toUpperCase(), move: points(m[2])[0] };
  if (/^MESSAGE REALTIME REFRESH/i.test(line)) return { type: 'refresh' };
  m = NBEST_RE.exec(line);
  if (m) {
    return {
      type: 'nbest',
      index: Number(m[1]),
      score: parseScore(m[2]),
      depth: Number(m[3]),
      seldepth: m[4] === undefined ? null : Number(m[4]),
      pv: points(m[5]),
    };
  }
  m = /^INFO\s+(\S+)\s*(.*)$/.exec(line);
  if (m) return { type: 'info', key: m[1].toUpperCase(), value: m[2] };
  return { type: 'note', text: line.replace(/^(MESSAGE|DEBUG)\s?/, '') };
}

/**
 * Collects the `INFO PV i` … `INFO PV DONE` blocks into one object per principal variation:
 * {pv, numpv, depth, seldepth, nodes, totalnodes, totaltime, speed, eval, winrate, bestline}.
 * `feed` returns the finished block at `INFO PV DONE`, else null.
 */
export class InfoBlocks {
  constructor() {
    this.block = null;
  }

  feed(ev) {
    const v = ev.value.trim();
    if (ev.key === 'PV') {
      if (/^DONE$/i.test(v)) {
        const done = this.block;
        this.block = null;
        return done;
      }
      this.block = { pv: Number(v) || 1 };
      return null;
    }
    if (!this.block) this.block = { pv: 1 };
    const b = this.block;
    switch (ev.key) {
      case 'NUMPV':
        b.numpv = Number(v);
        break;
      case 'DEPTH':
        b.depth = Number(v);
        break;
      case 'SELDEPTH':
        b.seldepth = Number(v);
        break;
      case 'NODES':
        b.nodes = Number(v);
        break;
      case 'TOTALNODES':
        b.totalnodes = Number(v);
        break;
      case 'TOTALTIME':
        b.totaltime = Number(v);
        break;
      case 'SPEED':
        b.speed = Number(v);
        break;
      case 'EVAL':
        b.eval = parseScore(v);
        break;
      case 'WINRATE': {
        const w = Number(v);
        if (Number.isFinite(w)) b.winrate = w > 1 ? w / 100 : w;
        break;
      }
      case 'BESTLINE':
        b.bestline = points(v);
        break;
      default:
        break;
    }
    return null;
  }
}

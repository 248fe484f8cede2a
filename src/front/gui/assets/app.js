// The page's controller: the game, the settings, and the conversation with the brain.
//
// The page owns the game (board.js referees it); the brain only ever sees protocol lines. Its
// board is kept in step cheaply when possible (`BEGIN`, `TURN x,y`, `TAKEBACK x,y`) and reset
// with the whole position (`BOARD`/`YXBOARD` … `DONE`) whenever the page cannot be sure what the
// brain holds (after an analysis, a load, a reconnection). `engine.known` is the list of moves
// the brain's board holds, in order, or null when unknown.
//
// Every exchange with the brain runs in one queue (`serial`), so commands and replies never
// interleave; `YXSTOP` alone is sent at once, to cut short the think at the queue's head.
//
// The position database (database.js) is the brain's: the page opens a file, and after each
// position change reads the children's records in the same queue (`refreshMarks`, never while
// the brain thinks); label mode turns a click into a label written for that move.

import { Board, BLACK, WHITE, EMPTY, RULES, MIN_SIZE, MAX_SIZE, ruleBits, colorName, judgeLast, parsePoint } from './board.js';
import { EngineLink, winRate, scoreText, InfoBlocks } from './engine.js';
import { BoardView } from './view.js';
import { FORMATS, formatRecord, parseRecord } from './record.js';
import { PositionDatabase } from './database.js';

const $ = (id) => document.getElementById(id);

const game = {
  rule: 'freestyle',
  board: new Board(15),
  /** The colour the engine plays in play mode. */
  engineColor: WHITE,
  /** Milliseconds each stone took. */
  times: [],
  /** Engine search statistics, by move index. */
  stats: [],
  /** null, or {winner, reason, line}. */
  over: null,
  /** Renju forbidden points for black in the current position (from the brain). */
  forbidden: [],
  turnStarted: performance.now(),
};

const engine = {
  link: null,
  name: 'pbrain-bango',
  known: null,
  me: null,
  /** null | 'move' | 'analysis' */
  busy: null,
};

const ui = { preview: null, previewKey: null, recordDirty: false, error: null, analysisDone: false };

let think = newThink('idle', '');
let infoBlocks = new InfoBlocks();
let queue = Promise.resolve();
let queued = 0;
let analysisGen = 0;

const view = new BoardView($('board'), (x, y) => onBoardClick(x, y));
const db = new PositionDatabase();

function newThink(kind, key) {
  return {
    kind,
    key,
    rows: new Map(),
    lines: new Map(),
    scores: new Map(),
    lost: [],
    best: null,
    pos: null,
    source: 'search',
    notes: [],
    summary: null,
    started: performance.now(),
  };
}

function positionKey() {
  return game.board.moves.map((m) => `${m.x},${m.y}`).join(' ');
}

/** The database's records depend on the rule and size too (a new game may change them). */
function dbKey() {
  return `${game.rule} ${game.board.size} ${positionKey()}`;
}

function analysisMode() {
  return $('analyse').checked;
}

/** Runs `fn` after every queued exchange with the brain; errors are shown, never thrown. */
function serial(fn) {
  queued++;
  render();
  queue = queue
    .then(fn)
    .catch((e) => showError(e))
    .finally(() => {
      queued--;
      render();
    });
  return queue;
}

function showError(e) {
  ui.error = e && e.message ? e.message : String(e);
  console.error(e);
  render();
}

function log(dir, line) {
  const pre = $('log');
  const text = `${dir} ${line}\n`;
  pre.append(text);
  // Keep the log bounded: drop the oldest lines past a few thousand.
  if (pre.childNodes.length > 4000) {
    for (let i = 0; i < 1000; i++) pre.removeChild(pre.firstChild);
  }
}

// ---------------------------------------------------------------------------------------------
// The brain's side of the conversation.

function stopEngine() {
  if (engine.busy && engine.link && engine.link.open) engine.link.send('YXSTOP');
}

function sameMoves(a, b) {
  return a.length === b.length && a.every((m, i) => m.x === b[i].x && m.y === b[i].y);
}

function engineInStep() {
  return engine.known !== null && sameMoves(engine.known, game.board.moves);
}

/** `BOARD`/`YXBOARD` body for the current position, our side (field 1) the side to move. */
function positionCommand(name) {
  const b = game.board;
  const stm = b.sideToMove();
  const lines = b.moves.map((m, i) => `${m.x},${m.y},${b.colorOf(i) === stm ? 1 : 2}`);
  return [name, ...lines, 'DONE'].join('\n');
}

async function startEngine() {
  const link = engine.link;
  await link.request(`START ${game.board.size}`, 'ok');
  link.send(`INFO rule ${ruleBits(game.rule)}`);
  link.send('INFO timeout_match 0');
  link.send('INFO show_detail 3');
  sendLimits(timePerMove());
  engine.known = [];
  engine.me = null;
}

function timePerMove() {
  const v = Math.round(Number($('time').value));
  return Number.isFinite(v) && v >= 0 ? v : 1000;
}

function sendLimits(ms) {
  const threads = Math.max(1, Math.min(64, Math.round(Number($('threads').value)) || 1));
  engine.link.send(`INFO thread_num ${threads}`);
  engine.link.send(`INFO timeout_turn ${ms}`);
}

/** Makes the brain's board the page's, if it may differ. */
async function syncEngine() {
  if (engineInStep()) return;
  engine.link.send(positionCommand('YXBOARD'));
  engine.known = game.board.moves.map((m) => ({ ...m }));
  engine.me = game.board.sideToMove();
}

async function refreshForbidden() {
  game.forbidden = [];
  if (game.rule !== 'renju' || game.over || game.board.sideToMove() !== BLACK) return;
  await syncEngine();
  const reply = await engine.link.request('YXSHOWFORBID', 'forbid');
  game.forbidden = parseForbid(reply.line);
  render();
}

/** The brain's marks for the position: the forbidden points, the database's records. */
async function refreshMarks() {
  await refreshForbidden();
  if (!db.open) return;
  await db.refresh(engine.link, game.board.moves, dbKey());
  render();
}

/** Label mode: the click writes the label for the move at (x, y) instead of playing it. */
function writeLabel(x, y) {
  if (!db.open) return showError(new Error('label mode: open a database first'));
  const moves = game.board.moves.map((m) => ({ ...m }));
  const key = dbKey();
  serial(async () => {
    await db.writeLabel(engine.link, moves, key, { x, y }, $('db-label').value);
  });
}

/** `FORBID xxyyxxyy….` → points. */
export function parseForbid(line) {
  const digits = line.replace(/^FORBID\s*/i, '').replace(/\.\s*$/, '').trim();
  const out = [];
  for (let i = 0; i + 4 <= digits.length; i += 4) {
    out.push({ x: Number(digits.slice(i, i + 2)), y: Number(digits.slice(i + 2, i + 4)) });
  }
  return out;
}

/** Asks the brain to play the side to move, and plays its answer. */
async function engineMove() {
  const b = game.board;
  const stm = b.sideToMove();
  const last = b.last();
  const sent = b.moves.map((m) => ({ ...m }));
  let cmd;
  if (b.moves.length === 0 && engine.known && engine.known.length === 0) {
    cmd = 'BEGIN';
  } else if (
    last &&
    engine.known &&
    // A first TURN on an empty board makes the brain white.
    (engine.me === stm || (engine.me === null && engine.known.length === 0 && stm === WHITE)) &&
    engine.known.length === b.moves.length - 1 &&
    sameMoves(engine.known, b.moves.slice(0, -1))
  ) {
    cmd = `TURN ${last.x},${last.y}`;
  } else {
    cmd = positionCommand('BOARD');
  }
  sendLimits(timePerMove());
  beginThink('move');
  engine.busy = 'move';
  render();
  let reply;
  try {
    reply = await engine.link.request(cmd, 'move');
  } finally {
    engine.busy = null;
  }
  const p = parsePoint(reply.line);
  engine.known = [...sent, p];
  engine.me = stm;
  const why = b.whyNot(p.x, p.y);
  if (why) throw new Error(`the brain answered ${reply.line}, which this board refuses: ${why}`);
  game.stats[b.moves.length] = moveStats(p, reply.ms);
  placeStone(p.x, p.y, reply.ms);
}

function moveStats(p, wallMs) {
  const rows = [...think.rows.values()].sort((a, b) => a.depth - b.depth);
  const deepest = think.summary || rows[rows.length - 1] || null;
  return {
    move: p,
    depth: deepest ? deepest.depth : null,
    seldepth: deepest && deepest.seldepth != null ? deepest.seldepth : null,
    score: deepest ? deepest.score : null,
    winrate: deepest ? (deepest.winrate != null ? deepest.winrate : winRate(deepest.score)) : null,
    nodes: deepest ? deepest.nodes : null,
    nps: deepest ? deepest.nps : null,
    ms: Math.round(wallMs),
    how: think.source,
  };
}

/** Thinks on the position without playing: `YXNBEST n` for several lines, else `BOARD`. */
async function analyse(gen) {
  if (gen !== analysisGen || !analysisMode() || game.over || game.board.isFull()) return;
  const n = Math.max(1, Math.min(10, Math.round(Number($('nbest').value)) || 1));
  const seconds = Math.max(1, Math.round(Number($('analysis-time').value)) || 20);
  const b = game.board;
  const stm = b.sideToMove();
  // The board may change while the brain thinks (a click stops and restarts the analysis).
  const sent = b.moves.map((m) => ({ ...m }));
  sendLimits(seconds * 1000);
  beginThink('analysis');
  engine.busy = 'analysis';
  ui.analysisDone = false;
  render();
  try {
    let single = n === 1;
    if (!single) {
      await syncEngine();
      try {
        const reply = await engine.link.request(`YXNBEST ${n}`, 'move');
        think.answer = parsePoint(reply.line);
      } catch (e) {
        if (!/^UNKNOWN/.test(e.message)) throw e;
        think.notes.push(`this brain does not know YXNBEST: showing its one line`);
        single = true;
      } finally {
        engine.known = null;
      }
    }
    if (single) {
      const reply = await engine.link.request(positionCommand('BOARD'), 'move');
      think.answer = parsePoint(reply.line);
      engine.known = [...sent, think.answer];
      engine.me = stm;
    }
  } finally {
    engine.busy = null;
  }
  ui.analysisDone = true;
}

function beginThink(kind) {
  think = newThink(kind, positionKey());
  infoBlocks = new InfoBlocks();
  ui.preview = null;
  ui.previewKey = null;
}

function onOutput(ev) {
  const t = think;
  switch (ev.type) {
    case 'depth':
      t.rows.set(ev.depth, { ...mergeRow(t.rows.get(ev.depth)), ...ev, winrate: winRate(ev.score) });
      if (ev.pv.length) {
        t.best = ev.pv[0];
        setScore(t, ev.pv[0], ev.score, ev.depth);
      }
      break;
    case 'summary':
      t.summary = { ...ev, winrate: winRate(ev.score) };
      if (ev.pv.length) t.best = ev.pv[0];
      break;
    case 'book':
      t.source = 'book';
      t.best = ev.move;
      t.notes.push(`book move ${ev.move.x},${ev.move.y}`);
      break;
    case 'proof':
      t.source = ev.kind;
      t.best = ev.move;
      t.notes.push(ev.text);
      break;
    case 'defend':
      t.notes.push(`the opponent has a VCF in ${ev.plies} plies; breaking moves: ${ev.moves.map((m) => `${m.x},${m.y}`).join(' ')}`);
      break;
    case 'realtime':
      if (ev.what === 'POS') t.pos = ev.move;
      else if (ev.what === 'DONE') {
        if (t.pos && t.pos.x === ev.move.x && t.pos.y === ev.move.y) t.pos = null;
      } else if (ev.what === 'BEST') t.best = ev.move;
      else if (ev.what === 'LOST') {
        if (!t.lost.some((p) => p.x === ev.move.x && p.y === ev.move.y)) t.lost.push(ev.move);
        setScore(t, ev.move, { kind: 'loss', value: 0, text: 'loss' }, Infinity);
      }
      break;
    case 'refresh':
      t.pos = null;
      break;
    case 'nbest':
      t.lines.set(ev.index, { ...ev, winrate: winRate(ev.score) });
      if (ev.pv.length) {
        setScore(t, ev.pv[0], ev.score, ev.depth);
        if (ev.index === 1) t.best = ev.pv[0];
      }
      break;
    case 'info': {
      const block = infoBlocks.feed(ev);
      if (block) onInfoBlock(t, block);
      break;
    }
    case 'error':
      showError(new Error(ev.text));
      break;
    case 'note':
      if (ev.text && !/^idle:/.test(ev.text)) t.notes.push(ev.text);
      break;
    default:
      break;
  }
  scheduleRender();
}

function mergeRow(row) {
  return row || {};
}

function onInfoBlock(t, b) {
  const score = b.eval || null;
  const winrate = b.winrate != null ? b.winrate : winRate(score);
  const line = b.bestline || [];
  const row = {
    depth: b.depth,
    seldepth: b.seldepth,
    score,
    winrate,
    nodes: b.totalnodes != null ? b.totalnodes : b.nodes,
    nps: b.speed,
    time: b.totaltime,
    pv: line,
  };
  if ((b.numpv || 1) > 1) {
    t.lines.set(b.pv, { index: b.pv, ...row });
  } else if (b.depth != null) {
    const old = t.rows.get(b.depth) || {};
    t.rows.set(b.depth, { ...old, ...Object.fromEntries(Object.entries(row).filter(([, v]) => v != null)) });
  }
  if (line.length && score) setScore(t, line[0], score, b.depth || 0);
  if (line.length && b.pv === 1) t.best = line[0];
}

function setScore(t, p, score, depth) {
  const key = `${p.x},${p.y}`;
  const old = t.scores.get(key);
  if (!old || depth >= old.depth) t.scores.set(key, { p, score, depth });
}

// ---------------------------------------------------------------------------------------------
// The game.

/** Places the side to move's stone and referees it. */
function placeStone(x, y, ms) {
  const forbiddenBefore = game.forbidden;
  game.board.play(x, y);
  game.times[game.board.moves.length - 1] = ms;
  game.forbidden = [];
  game.over = judgeLast(game.board, game.rule, forbiddenBefore);
  game.turnStarted = performance.now();
  ui.recordDirty = false;
  ui.preview = null;
  render();
}

/** After a stone: the engine's move, the forbidden points, or a new analysis. */
async function carryOn() {
  if (game.over) return;
  if (analysisMode()) {
    await refreshMarks();
    const gen = ++analysisGen;
    await analyse(gen);
    return;
  }
  if (game.board.sideToMove() === game.engineColor && !game.board.isFull()) {
    await engineMove();
    if (game.over) return;
  }
  await refreshMarks();
  game.turnStarted = performance.now();
}

function onBoardClick(x, y) {
  ui.error = null;
  if (game.over || !engine.link || !engine.link.open) return;
  if (game.board.whyNot(x, y)) return;
  if ($('db-label-mode').checked) return writeLabel(x, y);
  if (analysisMode()) {
    // Any side may move; a running analysis is cut short and starts again on the new position.
    if (engine.busy === 'move' || (queued > 0 && engine.busy !== 'analysis')) return;
    stopEngine();
  } else {
    if (engine.busy || queued > 0) return;
    if (game.board.sideToMove() === game.engineColor) return;
  }
  placeStone(x, y, performance.now() - game.turnStarted);
  serial(carryOn);
}

function newGame() {
  ui.error = null;
  stopEngine();
  analysisGen++;
  serial(async () => {
    const size = clampSize(Number($('size').value));
    $('size').value = String(size);
    game.rule = $('rule').value;
    game.board = new Board(size);
    game.engineColor = $('black').value === 'engine' ? BLACK : WHITE;
    game.times = [];
    game.stats = [];
    game.over = null;
    game.forbidden = [];
    think = newThink('idle', '');
    ui.recordDirty = false;
    ui.preview = null;
    render();
    await startEngine();
    await carryOn();
  });
}

function clampSize(n) {
  if (!Number.isFinite(n)) return 15;
  return Math.max(MIN_SIZE, Math.min(MAX_SIZE, Math.round(n)));
}

function takeBack() {
  ui.error = null;
  stopEngine();
  analysisGen++;
  serial(async () => {
    const b = game.board;
    if (b.moves.length === 0) return;
    let count = 1;
    if (!analysisMode()) {
      const lastIsEngine = b.colorOf(b.moves.length - 1) === game.engineColor;
      if (lastIsEngine) count = b.moves.length >= 2 ? 2 : 0;
    }
    for (let i = 0; i < count; i++) {
      const inStep = engineInStep();
      const m = b.undo();
      if (inStep) {
        await engine.link.request(`TAKEBACK ${m.x},${m.y}`, 'ok');
        engine.known.pop();
      }
    }
    game.times.length = b.moves.length;
    game.stats.length = b.moves.length;
    game.over = null;
    game.forbidden = [];
    think = newThink('idle', '');
    ui.recordDirty = false;
    render();
    await refreshMarks();
    if (analysisMode()) await analyse(++analysisGen);
    game.turnStarted = performance.now();
  });
}

/** The engine takes the side to move (you take the other) and plays now. */
function passMove() {
  ui.error = null;
  if (game.over || engine.busy === 'move') return;
  stopEngine();
  analysisGen++;
  serial(async () => {
    if (game.over || game.board.isFull()) return;
    game.engineColor = game.board.sideToMove();
    $('black').value = game.engineColor === BLACK ? 'engine' : 'human';
    await engineMove();
    if (game.over) return;
    await refreshMarks();
    if (analysisMode()) await analyse(++analysisGen);
  });
}

function loadRecord(text) {
  ui.error = null;
  $('record-note').textContent = '';
  stopEngine();
  analysisGen++;
  serial(async () => {
    const rec = parseRecord(text, game.board.size);
    const rule = $('rule').value;
    const board = new Board(rec.size);
    game.rule = rule;
    game.board = board;
    game.times = [];
    game.stats = [];
    game.over = null;
    game.forbidden = [];
    think = newThink('idle', '');
    $('size').value = String(rec.size);
    await startEngine();
    // Replay through the referee; under renju each black stone is checked against the brain's
    // forbidden points. Play stops at the first stone that ends the game.
    for (let i = 0; i < rec.moves.length && !game.over; i++) {
      const m = rec.moves[i];
      const why = board.whyNot(m.x, m.y);
      if (why) throw new Error(`record stone ${i + 1}: ${why}`);
      await refreshForbidden();
      placeStone(m.x, m.y, rec.times[i] || 0);
    }
    ui.recordDirty = false;
    render();
    $('record-note').textContent = `loaded ${game.board.moves.length} stones (${rec.format})`;
    await carryOn();
  });
}

// ---------------------------------------------------------------------------------------------
// Drawing.

let renderTimer = null;
function scheduleRender() {
  if (renderTimer) return;
  renderTimer = setTimeout(() => {
    renderTimer = null;
    render();
  }, 40);
}

function fmtInt(n) {
  if (n == null || !Number.isFinite(n)) return '–';
  return Math.round(n).toLocaleString('en-US');
}

function fmtRate(w) {
  return w == null || !Number.isFinite(w) ? '–' : `${(w * 100).toFixed(1)}%`;
}

function pvText(pv) {
  return (pv || []).map((p) => `${p.x},${p.y}`).join(' ');
}

function shortScore(s) {
  if (!s) return '';
  if (s.kind === 'win') return `W${s.value}`;
  if (s.kind === 'loss') return 'L';
  if (s.kind !== 'cp') return '?';
  const v = s.value;
  return Math.abs(v) >= 1000 ? `${(v / 1000).toFixed(1)}k` : String(v);
}

function render() {
  const b = game.board;
  const current = think.key === positionKey();
  const showMarks = current && (engine.busy || think.kind === 'analysis');
  const heat = [];
  if (current && $('heatmap').checked) {
    for (const { p, score, depth } of think.scores.values()) {
      const rate = winRate(score);
      if (rate == null) continue;
      heat.push({ x: p.x, y: p.y, rate, label: shortScore(score), title: `${p.x},${p.y}: ${scoreText(score)} (depth ${Number.isFinite(depth) ? depth : 'proof'})` });
    }
  }
  view.draw({
    board: b,
    numbers: $('numbers').checked,
    forbidden: game.forbidden,
    marks: showMarks ? { best: think.best, pos: think.pos, lost: think.lost } : {},
    heat: showMarks || think.kind === 'analysis' ? heat : [],
    db: db.marks(dbKey()),
    preview: ui.preview,
    win: game.over ? game.over.line : null,
  });
  $('board').setAttribute('data-busy', engine.busy ? '1' : '0');
  $('board').setAttribute('data-label-mode', $('db-label-mode').checked ? '1' : '0');
  $('db-note').textContent = db.note || 'no database open';
  $('db-note').setAttribute('data-state', db.open ? 'open' : 'closed');
  $('board').setAttribute('data-to-move', colorName(b.sideToMove()));
  renderBanner();
  renderStatus();
  renderThink();
  renderMoves();
  renderRecord();
  const connected = engine.link && engine.link.open;
  $('new-game').disabled = !connected;
  $('takeback').disabled = !connected || b.moves.length === 0;
  $('engine-move').disabled = !connected || !!game.over || engine.busy === 'move' || b.isFull();
  $('stop').disabled = !connected || !engine.busy;
}

function renderBanner() {
  const banner = $('banner');
  const o = game.over;
  if (!o) {
    banner.hidden = true;
    banner.setAttribute('data-result', '');
    return;
  }
  let title;
  let detail;
  if (o.winner === EMPTY) {
    title = 'Draw';
    detail = 'the board is full';
  } else {
    title = `${o.winner === BLACK ? 'Black' : 'White'} wins`;
    const who = o.winner === game.engineColor && !analysisMode() ? ' (engine)' : '';
    title += who;
    detail =
      o.reason === 'forbidden'
        ? `black played a forbidden point (${o.line[0].x},${o.line[0].y})`
        : game.rule === 'caro'
          ? 'five in a row, not blocked at both ends'
          : game.rule === 'freestyle'
            ? 'five in a row'
            : 'exactly five in a row';
  }
  banner.innerHTML = '';
  banner.append(title);
  const small = document.createElement('small');
  small.textContent = detail;
  banner.append(small);
  banner.setAttribute('data-result', o.winner === EMPTY ? 'draw' : colorName(o.winner));
  banner.setAttribute('data-reason', o.reason);
  banner.hidden = false;
}

function renderStatus() {
  const s = $('status');
  const b = game.board;
  let text;
  let state;
  if (!engine.link || !engine.link.open) {
    state = engine.link ? 'closed' : 'connecting';
    text = engine.link ? 'The connection to the brain is closed: press Reconnect.' : 'Connecting to the brain…';
  } else if (ui.error) {
    state = 'error';
    text = ui.error;
  } else if (game.over) {
    state = 'over';
    text = 'Game over. New game, take back, or load a record.';
  } else if (engine.busy === 'move') {
    state = 'thinking';
    text = `The engine (${colorName(b.sideToMove())}) is thinking… Stop makes it play now.`;
  } else if (engine.busy === 'analysis') {
    state = 'analysing';
    text = `Analysing ${colorName(b.sideToMove())} to move… place a stone for either side, or Stop.`;
  } else if (analysisMode()) {
    state = 'ready';
    text = ui.analysisDone ? `Analysis done. ${colorName(b.sideToMove())} to move.` : `Analysis mode: ${colorName(b.sideToMove())} to move.`;
  } else if (b.sideToMove() === game.engineColor) {
    state = 'ready';
    text = `The engine plays ${colorName(b.sideToMove())}: press Engine move, or take back.`;
  } else {
    state = 'ready';
    text = `Your move (${colorName(b.sideToMove())}).`;
  }
  s.textContent = text;
  s.setAttribute('data-state', state);
  s.setAttribute('data-queue', String(queued));
  $('conn').textContent = engine.link && engine.link.open ? 'connected' : state === 'closed' ? 'disconnected' : 'connecting';
  $('conn').setAttribute('data-state', engine.link && engine.link.open ? 'open' : state === 'closed' ? 'closed' : 'connecting');
  $('reconnect').hidden = state !== 'closed';
}

function renderThink() {
  const t = think;
  const rows = [...t.rows.values()].sort((a, b) => a.depth - b.depth);
  const top = t.summary || rows[rows.length - 1] || null;
  $('think-state').textContent =
    engine.busy === 'move' ? 'thinking…' : engine.busy === 'analysis' ? 'analysing…' : t.kind === 'idle' ? '' : 'done';
  $('sum-depth').textContent = top ? `${top.depth}${top.seldepth ? `-${top.seldepth}` : ''}` : '–';
  $('sum-score').textContent = top ? scoreText(top.score) : '–';
  $('sum-winrate').textContent = top ? fmtRate(top.winrate) : '–';
  $('sum-nodes').textContent = top ? fmtInt(top.nodes) : '–';
  $('sum-nps').textContent = top ? fmtInt(top.nps) : '–';
  $('sum-time').textContent = top && top.time != null ? `${fmtInt(top.time)} ms` : '–';
  $('sum-best').textContent = t.best ? `${t.best.x},${t.best.y}` : '–';
  $('sum-pos').textContent = t.pos ? `${t.pos.x},${t.pos.y}` : '–';
  $('think-note').textContent = t.notes.slice(-2).join(' · ');
  const tbody = $('think-table').querySelector('tbody');
  // Rebuilt only when it changed, so a row stays put under the pointer between depths.
  const sig = JSON.stringify([ui.previewKey, rows.map((r) => [r.depth, r.seldepth, r.score && r.score.text, r.nodes, r.time, pvText(r.pv)])]);
  if (tbody.dataset.sig !== sig) tbody.dataset.sig = sig;
  else return renderLines(t);
  tbody.innerHTML = '';
  for (const r of rows.slice().reverse()) {
    const tr = document.createElement('tr');
    tr.setAttribute('data-depth', String(r.depth));
    const key = `row:${r.depth}`;
    if (ui.previewKey === key) tr.className = 'previewing';
    for (const v of [r.depth, r.seldepth ?? '', scoreText(r.score), fmtRate(r.winrate), fmtInt(r.nodes), fmtInt(r.nps), fmtInt(r.time), pvText(r.pv)]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.append(td);
    }
    tr.addEventListener('click', () => togglePreview(key, r.pv));
    tbody.append(tr);
  }
  renderLines(t);
}

function renderLines(t) {
  const ol = $('lines');
  const lines = [...t.lines.values()].sort((a, b) => a.index - b.index);
  const sig = JSON.stringify([ui.previewKey, lines.map((l) => [l.index, l.depth, l.seldepth, l.score && l.score.text, pvText(l.pv)])]);
  if (ol.dataset.sig === sig) return;
  ol.dataset.sig = sig;
  ol.innerHTML = '';
  for (const l of lines) {
    const li = document.createElement('li');
    const key = `line:${l.index}`;
    li.setAttribute('data-index', String(l.index));
    if (ui.previewKey === key) li.className = 'previewing';
    const depth = l.depth != null ? `d${l.depth}${l.seldepth ? `-${l.seldepth}` : ''}` : '';
    li.textContent = `${scoreText(l.score)} (${fmtRate(l.winrate)}) ${depth}: ${pvText(l.pv)}`;
    li.addEventListener('click', () => togglePreview(key, l.pv));
    ol.append(li);
  }
  ol.hidden = lines.length === 0;
}

function togglePreview(key, pv) {
  if (ui.previewKey === key || !pv || !pv.length) {
    ui.preview = null;
    ui.previewKey = null;
  } else if (think.key === positionKey()) {
    ui.preview = pv;
    ui.previewKey = key;
  }
  render();
}

function renderMoves() {
  const tbody = $('moves-table').querySelector('tbody');
  tbody.innerHTML = '';
  game.stats.forEach((s, i) => {
    if (!s) return;
    const tr = document.createElement('tr');
    tr.setAttribute('data-n', String(i + 1));
    tr.setAttribute('data-ms', String(s.ms));
    tr.setAttribute('data-depth', s.depth == null ? '' : String(s.depth));
    const depth = s.depth == null ? '–' : `${s.depth}${s.seldepth ? `-${s.seldepth}` : ''}`;
    for (const v of [i + 1, `${s.move.x},${s.move.y}`, depth, s.score ? scoreText(s.score) : '–', fmtRate(s.winrate), fmtInt(s.nodes), fmtInt(s.nps), fmtInt(s.ms), s.how]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.append(td);
    }
    tbody.append(tr);
  });
}

function recordGame() {
  const human = 'human';
  return {
    size: game.board.size,
    moves: game.board.moves,
    times: game.times,
    black: game.engineColor === BLACK ? engine.name : human,
    white: game.engineColor === WHITE ? engine.name : human,
  };
}

function renderRecord() {
  if (ui.recordDirty) return;
  const text = formatRecord($('record-format').value, recordGame());
  const area = $('record');
  if (area.value !== text) area.value = text;
}

// ---------------------------------------------------------------------------------------------
// Wiring.

async function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const link = new EngineLink(url, {
    onOutput,
    onLog: log,
    onState: () => {
      if (!link.open) engine.busy = null;
      render();
    },
  });
  engine.link = link;
  engine.known = null;
  render();
  await link.connect();
  const about = await link.request('ABOUT', 'about');
  const name = /name="([^"]*)"/.exec(about.line);
  const version = /version="([^"]*)"/.exec(about.line);
  const ai = /ai="([^"]*)"/.exec(about.line);
  engine.name = name ? name[1] : 'brain';
  $('engine-name').textContent = `${engine.name} ${version ? version[1] : ''}${ai ? ` (${ai[1]})` : ''}`;
}

function setup() {
  for (const r of RULES) {
    const o = document.createElement('option');
    o.value = r.name;
    o.textContent = r.label;
    $('rule').append(o);
  }
  for (const f of FORMATS) {
    const o = document.createElement('option');
    o.value = f.name;
    o.textContent = f.label;
    $('record-format').append(o);
  }
  $('new-game').addEventListener('click', newGame);
  $('takeback').addEventListener('click', takeBack);
  $('engine-move').addEventListener('click', passMove);
  $('stop').addEventListener('click', () => stopEngine());
  $('numbers').addEventListener('change', render);
  $('db-label-mode').addEventListener('change', render);
  $('db-open').addEventListener('click', () => {
    ui.error = null;
    serial(async () => {
      await db.openFile(engine.link, $('db-path').value);
      await refreshMarks();
    });
  });
  $('heatmap').addEventListener('change', render);
  $('analyse').addEventListener('change', () => {
    ui.analysisDone = false;
    if (analysisMode()) {
      const gen = ++analysisGen;
      if (!engine.busy) serial(() => analyse(gen));
    } else {
      analysisGen++;
      if (engine.busy === 'analysis') stopEngine();
      render();
    }
  });
  $('nbest').addEventListener('change', () => {
    if (analysisMode()) {
      stopEngine();
      const gen = ++analysisGen;
      serial(() => analyse(gen));
    }
  });
  $('record-format').addEventListener('change', () => {
    ui.recordDirty = false;
    render();
  });
  $('record').addEventListener('input', () => {
    ui.recordDirty = true;
  });
  $('copy').addEventListener('click', async () => {
    const text = $('record').value;
    try {
      await navigator.clipboard.writeText(text);
      $('record-note').textContent = 'copied';
    } catch {
      $('record').select();
      document.execCommand('copy');
      $('record-note').textContent = 'copied (selection)';
    }
  });
  $('download').addEventListener('click', () => {
    const fmt = FORMATS.find((f) => f.name === $('record-format').value);
    const blob = new Blob([$('record').value], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `bango-game.${fmt.ext}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  $('load').addEventListener('click', () => loadRecord($('record').value));
  $('load-file').addEventListener('change', async (ev) => {
    const file = ev.target.files && ev.target.files[0];
    if (!file) return;
    const text = await file.text();
    $('record').value = text;
    ev.target.value = '';
    loadRecord(text);
  });
  $('reconnect').addEventListener('click', () => {
    ui.error = null;
    serial(async () => {
      await connect();
      await startEngine();
      engine.known = null;
      await db.reopen(engine.link);
      await refreshMarks();
    });
  });
  // Leaving the page (even into the back/forward cache) ends the session at once; coming back
  // from the cache starts a new one on the same position.
  window.addEventListener('pagehide', () => {
    if (engine.link) engine.link.close();
  });
  window.addEventListener('pageshow', (ev) => {
    if (ev.persisted) $('reconnect').click();
  });
  view.setSize(game.board.size);
  render();
  serial(async () => {
    await connect();
  });
  newGame();
}

setup();

// The board drawn in SVG: grid, edge coordinates (the protocol's 0-based x along the top and
// bottom, y down the sides), stones with optional move numbers, the last move, and overlays
// (renju forbidden points, the engine's best / searched / lost moves, the heatmap of root-move
// scores, the position database's labels and values, a previewed line, the winning five). Every intersection has a transparent hit square
// on top (`rect.hit[data-x][data-y]`) that receives clicks.

import { BLACK, WHITE, EMPTY } from './board.js';

const NS = 'http://www.w3.org/2000/svg';
const CELL = 32;
const MARGIN = 30;

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** Red (0) through amber (0.5) to green (1). */
export function heatColor(rate) {
  const r = Math.max(0, Math.min(1, rate));
  const hue = Math.round(r * 120);
  return `hsl(${hue}, 85%, 48%)`;
}

export class BoardView {
  constructor(svg, onClick) {
    this.svg = svg;
    this.onClick = onClick;
    this.size = 0;
  }

  px(i) {
    return MARGIN + i * CELL;
  }

  /** Rebuilds the static parts for a board of `size`. */
  setSize(size) {
    this.size = size;
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const span = 2 * MARGIN + (size - 1) * CELL;
    svg.setAttribute('viewBox', `0 0 ${span} ${span}`);
    svg.setAttribute('data-size', String(size));
    const defs = el('defs', {}, svg);
    const gb = el('radialGradient', { id: 'stone-black', cx: '35%', cy: '30%', r: '70%' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#666' }, gb);
    el('stop', { offset: '100%', 'stop-color': '#111' }, gb);
    const gw = el('radialGradient', { id: 'stone-white', cx: '35%', cy: '30%', r: '75%' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#fff' }, gw);
    el('stop', { offset: '100%', 'stop-color': '#cfcfc8' }, gw);
    el('rect', { x: 0, y: 0, width: span, height: span, class: 'wood', rx: 6 }, svg);
    const grid = el('g', { class: 'grid' }, svg);
    const lo = this.px(0);
    const hi = this.px(size - 1);
    for (let i = 0; i < size; i++) {
      el('line', { x1: lo, y1: this.px(i), x2: hi, y2: this.px(i) }, grid);
      el('line', { x1: this.px(i), y1: lo, x2: this.px(i), y2: hi }, grid);
    }
    for (const [x, y] of starPoints(size)) el('circle', { cx: this.px(x), cy: this.px(y), r: 3.2, class: 'star' }, grid);
    const coords = el('g', { class: 'coords' }, svg);
    for (let i = 0; i < size; i++) {
      for (const y of [MARGIN / 2, span - MARGIN / 2]) {
        const t = el('text', { x: this.px(i), y, class: 'coord' }, coords);
        t.textContent = String(i);
      }
      for (const x of [MARGIN / 2, span - MARGIN / 2]) {
        const t = el('text', { x, y: this.px(i), class: 'coord' }, coords);
        t.textContent = String(i);
      }
    }
    this.layers = {};
    // The database's marks lie above the hit squares so their titles show on hover; a click on
    // one is the click on its point.
    for (const name of ['heat', 'stones', 'marks', 'preview', 'hits', 'db']) {
      this.layers[name] = el('g', { class: `layer-${name}` }, svg);
    }
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const r = el(
          'rect',
          { x: this.px(x) - CELL / 2, y: this.px(y) - CELL / 2, width: CELL, height: CELL, class: 'hit', 'data-x': x, 'data-y': y },
          this.layers.hits,
        );
        r.addEventListener('click', () => this.onClick(x, y));
      }
    }
  }

  /**
   * Draws the dynamic parts. `s`: {board, numbers, forbidden, marks: {best, pos, lost},
   * heat: [{x, y, rate, label}], db: [{x, y, text, title}], preview: [{x, y}], win: [{x, y}]}.
   */
  draw(s) {
    const { board } = s;
    if (board.size !== this.size) this.setSize(board.size);
    for (const g of ['heat', 'db', 'stones', 'marks', 'preview']) {
      const layer = this.layers[g];
      while (layer.firstChild) layer.removeChild(layer.firstChild);
    }
    const R = CELL * 0.46;
    this.svg.setAttribute('data-moves', board.moves.map((m) => `${m.x},${m.y}`).join(' '));
    if (s.heat) {
      for (const h of s.heat) {
        if (board.at(h.x, h.y) !== EMPTY) continue;
        const g = el('g', { class: 'heat', 'data-x': h.x, 'data-y': h.y }, this.layers.heat);
        el('rect', { x: this.px(h.x) - CELL / 2 + 1.5, y: this.px(h.y) - CELL / 2 + 1.5, width: CELL - 3, height: CELL - 3, rx: 4, fill: heatColor(h.rate) }, g);
        if (h.label) {
          const t = el('text', { x: this.px(h.x), y: this.px(h.y), class: 'heat-label' }, g);
          t.textContent = h.label;
        }
        const title = el('title', {}, g);
        title.textContent = h.title || h.label || '';
      }
    }
    for (const d of s.db || []) {
      if (board.at(d.x, d.y) !== EMPTY) continue;
      const g = el('g', { class: 'db-mark', 'data-x': d.x, 'data-y': d.y }, this.layers.db);
      // Wide enough for the text (about 6.2 px a character at the label's 10 px).
      const w = Math.max(CELL - 6, d.text.length * 6.2 + 6);
      el('rect', { x: this.px(d.x) - w / 2, y: this.px(d.y) - CELL / 4, width: w, height: CELL / 2, rx: 3 }, g);
      const t = el('text', { x: this.px(d.x), y: this.px(d.y), class: 'db-label', 'data-x': d.x, 'data-y': d.y }, g);
      t.textContent = d.text;
      const title = el('title', {}, g);
      title.textContent = d.title || d.text;
      g.addEventListener('click', () => this.onClick(d.x, d.y));
    }
    board.moves.forEach((m, i) => {
      const color = board.colorOf(i);
      const name = color === BLACK ? 'black' : 'white';
      el(
        'circle',
        { cx: this.px(m.x), cy: this.px(m.y), r: R, class: `stone ${name}`, fill: `url(#stone-${name})`, 'data-x': m.x, 'data-y': m.y, 'data-n': i + 1 },
        this.layers.stones,
      );
      if (s.numbers) {
        const t = el('text', { x: this.px(m.x), y: this.px(m.y), class: `num on-${name}` }, this.layers.stones);
        t.textContent = String(i + 1);
      }
    });
    const last = board.last();
    if (last) {
      const color = board.colorOf(board.moves.length - 1) === BLACK ? 'on-black' : 'on-white';
      if (s.numbers) {
        el('circle', { cx: this.px(last.x), cy: this.px(last.y), r: R - 1.5, class: `last ring ${color}`, 'data-x': last.x, 'data-y': last.y }, this.layers.marks);
      } else {
        el('circle', { cx: this.px(last.x), cy: this.px(last.y), r: 4.5, class: `last dot`, 'data-x': last.x, 'data-y': last.y }, this.layers.marks);
      }
    }
    for (const p of s.forbidden || []) {
      if (board.at(p.x, p.y) !== EMPTY) continue;
      const g = el('g', { class: 'forbid', 'data-x': p.x, 'data-y': p.y }, this.layers.marks);
      const d = 7;
      el('line', { x1: this.px(p.x) - d, y1: this.px(p.y) - d, x2: this.px(p.x) + d, y2: this.px(p.y) + d }, g);
      el('line', { x1: this.px(p.x) - d, y1: this.px(p.y) + d, x2: this.px(p.x) + d, y2: this.px(p.y) - d }, g);
    }
    const marks = s.marks || {};
    for (const p of marks.lost || []) {
      if (board.at(p.x, p.y) !== EMPTY) continue;
      const g = el('g', { class: 'lost-mark', 'data-x': p.x, 'data-y': p.y }, this.layers.marks);
      const d = 5;
      el('line', { x1: this.px(p.x) - d, y1: this.px(p.y) - d, x2: this.px(p.x) + d, y2: this.px(p.y) + d }, g);
      el('line', { x1: this.px(p.x) - d, y1: this.px(p.y) + d, x2: this.px(p.x) + d, y2: this.px(p.y) - d }, g);
    }
    if (marks.pos && board.at(marks.pos.x, marks.pos.y) === EMPTY) {
      el('circle', { cx: this.px(marks.pos.x), cy: this.px(marks.pos.y), r: 5, class: 'pos-mark', 'data-x': marks.pos.x, 'data-y': marks.pos.y }, this.layers.marks);
    }
    if (marks.best && board.at(marks.best.x, marks.best.y) === EMPTY) {
      el('circle', { cx: this.px(marks.best.x), cy: this.px(marks.best.y), r: R - 2, class: 'best-mark', 'data-x': marks.best.x, 'data-y': marks.best.y }, this.layers.marks);
    }
    if (s.win && s.win.length > 1) {
      const a = s.win[0];
      const b = s.win[s.win.length - 1];
      el('line', { x1: this.px(a.x), y1: this.px(a.y), x2: this.px(b.x), y2: this.px(b.y), class: 'win-line' }, this.layers.marks);
    } else if (s.win && s.win.length === 1) {
      const p = s.win[0];
      el('circle', { cx: this.px(p.x), cy: this.px(p.y), r: R + 2, class: 'win-ring' }, this.layers.marks);
    }
    if (s.preview && s.preview.length) {
      const b = board.clone();
      let shown = 0;
      for (const p of s.preview) {
        if (b.whyNot(p.x, p.y)) break;
        const color = b.play(p.x, p.y) === BLACK ? 'black' : 'white';
        shown++;
        el('circle', { cx: this.px(p.x), cy: this.px(p.y), r: R, class: `preview-stone ${color}`, fill: `url(#stone-${color})`, 'data-x': p.x, 'data-y': p.y }, this.layers.preview);
        const t = el('text', { x: this.px(p.x), y: this.px(p.y), class: `num on-${color}` }, this.layers.preview);
        t.textContent = String(shown);
      }
    }
  }
}

/** The marked points: corners' 3-3 points and the centre on boards large enough. */
function starPoints(size) {
  if (size < 9) return [];
  const a = size >= 13 ? 3 : 2;
  const b = size - 1 - a;
  const c = Math.floor(size / 2);
  const pts = [
    [a, a],
    [a, b],
    [b, a],
    [b, b],
  ];
  if (size % 2 === 1) pts.push([c, c]);
  return pts;
}

export { BLACK, WHITE };

// tpuprof HTML report: reads the embedded metadata (JSON) and the timeline
// columns (base64 of zigzag LEB128 varints, see report/detail/lane_columns.hpp), then renders
// the overview, the canvas timeline, the bandwidth charts and the tables.
// No network, no third-party code. window.tpuprof is the test hook.
'use strict';
(function () {
  const errors = [];
  window.addEventListener('error', (e) => errors.push(String(e.message || e)));
  const api = { ready: false, errors };
  window.tpuprof = api;

  // ---------- small helpers ----------
  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null) continue;
        if (k === 'class') n.className = v;
        else if (k === 'style') n.style.cssText = v;
        else if (k.startsWith('on')) n.addEventListener(k.slice(2), v);
        else n.setAttribute(k, v);
      }
    }
    for (const k of kids.flat(Infinity)) {
      if (k === undefined || k === null || k === false) continue;
      n.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
    }
    return n;
  }
  const nf = new Intl.NumberFormat('en-US');
  function num(v) { return v === null || v === undefined || Number.isNaN(v) ? '' : nf.format(v); }
  function fixed(v, d) { return v === null || v === undefined || !Number.isFinite(v) ? '' : v.toFixed(d); }
  function dur(ns) {
    if (ns === null || ns === undefined || !Number.isFinite(ns)) return '';
    const a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (a >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (a >= 1e3) return (ns / 1e3).toFixed(3) + ' \u00b5s';
    return (Math.round(ns * 1000) / 1000) + ' ns';
  }
  function bytes(b) {
    if (b === null || b === undefined || !Number.isFinite(b)) return '';
    if (b >= 1 << 30) return (b / (1 << 30)).toFixed(2) + ' GiB';
    if (b >= 1 << 20) return (b / (1 << 20)).toFixed(2) + ' MiB';
    if (b >= 1 << 10) return (b / (1 << 10)).toFixed(2) + ' KiB';
    return b + ' B';
  }
  function pct(r) { return r === null || r === undefined || !Number.isFinite(r) ? 'unknown' : (r * 100).toFixed(2) + '%'; }
  function gbps(v) { return v === null || v === undefined || !Number.isFinite(v) ? '' : v.toFixed(2) + ' GB/s'; }

  // ---------- data ----------
  const meta = JSON.parse(document.getElementById('tpuprof-meta').textContent);
  const names = meta.names;
  const info = meta.info;
  const ENG_COLOR = { TIU: '#4e79a7', GDMA: '#f28e2b', SDMA: '#59a14f', CDMA: '#b07aa1',
    MCU: '#9c755f', LAYER: '#76b7b2', FUNCTION: '#edc948', SUBNET: '#bab0ac' };

  function base64Bytes(s) {
    const bin = atob(s.trim());
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // Decodes `n` zigzag varints from buf[o, o+l) into `out` (running sum when delta).
  function decodeVarints(buf, o, n, delta, out) {
    let p = o, acc = 0;
    for (let i = 0; i < n; i++) {
      let b = buf[p++], z = b & 0x7f;
      if (b & 0x80) {
        let mul = 128;
        do { b = buf[p++]; z += (b & 0x7f) * mul; mul *= 128; } while (b & 0x80);
      }
      const v = z % 2 === 1 ? -(z + 1) / 2 : z / 2;
      acc = delta ? acc + v : v;
      out[i] = acc;
    }
  }

  // Column -> [array type, delta coded]. bc holds begin_cycle minus the end
  // cycle of the previous event; see report/detail/lane_columns.hpp.
  const COLS = { bc: [Float64Array, false], cy: [Float64Array, false], rb: [Float64Array, true],
    re: [Float64Array, true], op: [Uint16Array, false], ty: [Uint16Array, false], id: [Float64Array, true],
    by: [Float64Array, false], ua: [Float64Array, false], ly: [Float64Array, true], fn: [Uint16Array, false],
    fl: [Uint8Array, false], gr: [Float64Array, true] };

  const lanes = meta.lanes.map((m, idx) => {
    const label = (info.devices > 1 ? 'TPU' + m.dev + ' ' : '') +
      (m.eng === 'CDMA' ? 'CDMA port ' + m.unit : 'Core ' + m.unit + ' \u00b7 ' + m.eng);
    return { idx, meta: m, eng: m.eng, unit: m.unit, dev: m.dev, hw: m.hw, n: m.n, freq: m.freq, label,
      color: ENG_COLOR[m.eng] || '#888' };
  });

  function decodeAll() {
    const dataEl = document.getElementById('tpuprof-data');
    const buf = base64Bytes(dataEl.textContent);
    dataEl.textContent = '';
    for (const L of lanes) {
      const n = L.n, cols = {};
      for (const [k, [T, delta]] of Object.entries(COLS)) {
        const spec = L.meta.cols[k];
        if ('c' in spec) { cols[k] = spec.c; continue; }
        if ('m' in spec) { cols[k] = { key: spec.k, map: new Map(spec.m) }; continue; }
        const a = new T(n);
        decodeVarints(buf, spec.o, n, delta, a);
        cols[k] = a;
      }
      const f = L.freq, get = (c, i) => (typeof c === 'number' ? c : c[i]);
      const b = new Float64Array(n), e = new Float64Array(n);
      const bcs = cols.bc, bcConst = typeof bcs === 'number';
      let prevEnd = 0;
      for (let i = 0; i < n; i++) {
        const bc = bcConst ? bcs : prevEnd + bcs[i], ec = bc + get(cols.cy, i);
        if (!bcConst) bcs[i] = bc;
        prevEnd = ec;
        b[i] = bc * 1000 / f + get(cols.rb, i) / 1000;
        e[i] = ec * 1000 / f + get(cols.re, i) / 1000;
        if (e[i] < b[i]) e[i] = b[i];
      }
      L.b = b; L.e = e; L.cols = cols;
      // Cycles are recomputed from ns when the residual columns are constant.
      if (typeof cols.rb === 'number' && typeof cols.re === 'number') { cols.bc = null; cols.cy = null; }
      layoutLane(L);
    }
  }
  function colv(L, k, i) {
    const c = L.cols[k];
    if (typeof c === 'number') return c;
    if (c.key) { const v = c.map.get(colv(L, c.key, i)); return v === undefined ? 0 : v; }
    return c[i];
  }
  function cyclesOf(L, i) {
    if (L.cols.bc !== null) { const bc = colv(L, 'bc', i); return [bc, bc + colv(L, 'cy', i)]; }
    const bc = Math.round((L.b[i] - L.cols.rb / 1000) * L.freq / 1000);
    const ec = Math.round((L.e[i] - L.cols.re / 1000) * L.freq / 1000);
    return [bc, ec];
  }

  // Rows inside a lane for overlapping events, and block maxima of the ends
  // (for the first event visible at a time, exact even with long events).
  const BLOCK = 64;
  function layoutLane(L) {
    const n = L.n, cap = L.hw ? 3 : 7;
    const depth = new Uint8Array(n), rowsEnd = [];
    let maxd = 0;
    for (let i = 0; i < n; i++) {
      let d = 0;
      while (d < rowsEnd.length && rowsEnd[d] > L.b[i] + 1e-9) d++;
      if (d > cap) { d = cap; }
      rowsEnd[d] = Math.max(rowsEnd[d] || 0, L.e[i]);
      depth[i] = d;
      if (d > maxd) maxd = d;
    }
    L.depth = depth;
    L.rows = maxd + 1;
    const nb = Math.ceil(n / BLOCK), bm = new Float64Array(nb);
    let run = -Infinity;
    for (let k = 0; k < nb; k++) {
      const end = Math.min(n, (k + 1) * BLOCK);
      for (let i = k * BLOCK; i < end; i++) if (L.e[i] > run) run = L.e[i];
      bm[k] = run;  // prefix maximum: non-decreasing
    }
    L.blockMax = bm;
  }
  function firstVisible(L, t0) {
    let lo = 0, hi = L.blockMax.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (L.blockMax[m] < t0) lo = m + 1; else hi = m; }
    return lo * BLOCK;
  }
  function upperBound(a, n, t) { // first index with a[i] > t
    let lo = 0, hi = n;
    while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] <= t) lo = m + 1; else hi = m; }
    return lo;
  }

  // Colour of a name: a stable hash of its text onto a pleasant palette.
  const nameColor = names.map((s) => {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    h >>>= 0;
    return 'hsl(' + (h % 360) + ',' + (45 + (h >>> 9) % 25) + '%,' + (48 + (h >>> 17) % 14) + '%)';
  });
  const opName = (id) => names[id] || 'unknown';

  // ---------- page skeleton ----------
  const app = document.getElementById('app');
  app.textContent = '';
  const tip = el('div', { id: 'tip' });
  document.body.appendChild(tip);

  function section(id, title, ...kids) { return el('section', { id }, el('h2', null, title), ...kids); }

  function sortableTable(headers, rows, opts) {
    // headers: [{t, num, fmt, cls}], rows: arrays of raw values; opts.onclick(row)
    const table = el('table', { class: 'sortable' });
    const thead = el('thead'), tbody = el('tbody');
    const tr = el('tr');
    let sortCol = opts && opts.sortCol !== undefined ? opts.sortCol : -1, asc = false;
    headers.forEach((h, c) => {
      const th = el('th', { class: h.num ? '' : 'l', title: h.title || null }, h.t);
      th.addEventListener('click', () => { asc = sortCol === c ? !asc : !h.num; sortCol = c; render(); });
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    table.append(thead, tbody);
    const limit = (opts && opts.limit) || 1000;
    function render() {
      const rs = rows.slice();
      if (sortCol >= 0) {
        rs.sort((a, b) => {
          const x = a[sortCol], y = b[sortCol];
          const nx = x === null || x === undefined || Number.isNaN(x), ny = y === null || y === undefined || Number.isNaN(y);
          if (nx || ny) return nx === ny ? 0 : nx ? 1 : -1;
          const r = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          return asc ? r : -r;
        });
      }
      [...thead.rows[0].cells].forEach((th, c) => { th.className = (headers[c].num ? '' : 'l') + (c === sortCol ? (asc ? ' asc' : ' desc') : ''); });
      tbody.textContent = '';
      for (const r of rs.slice(0, limit)) {
        const row = el('tr', opts && opts.onclick ? { class: 'click' } : null);
        headers.forEach((h, c) => row.appendChild(el('td', { class: h.num ? null : 'l' }, h.fmt ? h.fmt(r[c], r) : r[c])));
        if (opts && opts.onclick) row.addEventListener('click', () => opts.onclick(r));
        tbody.appendChild(row);
      }
    }
    render();
    return el('div', { class: 'tablewrap' + (opts && opts.short ? ' short' : '') }, table);
  }
  function barCell(ratio, cls) {
    const w = Number.isFinite(ratio) ? Math.max(0, Math.min(1, ratio)) * 100 : 0;
    return el('div', { class: 'bar ' + cls, title: pct(ratio) }, el('span', { style: 'width:' + w + '%' }));
  }

  // ---------- overview ----------
  function overview() {
    const span = info.end_ns - info.begin_ns;
    const dl = meta.diag.data_loss;
    const diagTotal = meta.diag.counts.reduce((s, c) => s + c[1], 0);
    const cards = el('div', { class: 'cards' },
      card('Chip', info.chip || 'unknown'), card('Cores', info.cores + (info.devices > 1 ? ' \u00d7 ' + info.devices + ' devices' : '')),
      card('Mode', info.mode || '\u2014'), card('Span', dur(span)), card('Hardware events', num(info.events)),
      card('Derived spans', num(info.spans)), card('Lanes', lanes.length),
      card('Diagnostics', diagTotal ? (dl ? 'data loss' : diagTotal + ' notes') : 'clean', dl ? 'bad' : diagTotal ? '' : 'good'));
    function card(k, v, cls) { return el('div', { class: 'card ' + (cls || '') }, el('div', { class: 'k' }, k), el('div', { class: 'v' }, v)); }

    // Per core: engine utilization bars, compute vs transfer, uArch, bandwidth.
    const util = new Map(meta.util.tracks.map((t) => [t.lane, t]));
    const spanU = meta.util.span_ns;
    const ratioOf = (dev, unit, eng) => {
      const L = lanes.find((l) => l.dev === dev && l.unit === unit && l.eng === eng);
      const t = L && util.get(L.idx);
      return t && spanU > 0 ? t.busy_ns / spanU : NaN;
    };
    const cu = new Map(meta.util.cores.map((c) => [c.dev * 256 + c.core, c]));
    const has = (eng) => lanes.some((l) => l.eng === eng && l.n > 0);
    const engs = ['TIU', 'GDMA', 'SDMA'].filter(has);
    const rows = meta.summary.cores.filter((c) => c.events[0] + c.events[1] + c.events[2] > 0).map((c) => {
      const u = cu.get(c.dev * 256 + c.core) || { compute_ns: 0, transfer_ns: 0, overlap_ns: 0 };
      const s = spanU > 0 ? spanU : 1;
      const compOnly = (u.compute_ns - u.overlap_ns) / s, both = u.overlap_ns / s, xferOnly = (u.transfer_ns - u.overlap_ns) / s;
      const stack = el('div', { class: 'stack', title: 'compute only ' + pct(compOnly) + ', both ' + pct(both) + ', transfer only ' + pct(xferOnly) },
        el('span', { style: 'width:' + compOnly * 100 + '%;background:var(--tiu)' }),
        el('span', { style: 'width:' + both * 100 + '%;background:var(--overlap)' }),
        el('span', { style: 'width:' + xferOnly * 100 + '%;background:var(--gdma)' }));
      const lbl = (info.devices > 1 ? c.dev + ':' : '') + c.core;
      return el('tr', null, el('td', null, lbl),
        engs.map((g) => [el('td', null, barCell(ratioOf(c.dev, c.core, g), g.toLowerCase())), el('td', null, pct(ratioOf(c.dev, c.core, g)))]),
        el('td', null, stack), el('td', null, pct(c.parallelism)), el('td', null, pct(c.uarch)),
        el('td', null, fixed(c.gdma_ddr_gbps, 2)), el('td', null, fixed(c.gdma_l2_gbps, 2)), has('SDMA') ? el('td', null, fixed(c.sdma_ddr_gbps, 2)) : null);
    });
    const coreTable = el('div', { class: 'tablewrap' }, el('table', null,
      el('thead', null, el('tr', null, ...['Core', ...engs.flatMap((g) => [g + ' busy', '']), 'Compute vs transfer', 'Parallelism',
        'uArch rate', 'GDMA DDR GB/s', 'GDMA L2 GB/s', ...(has('SDMA') ? ['SDMA DDR GB/s'] : [])].map((t, i) => el('th', { class: i ? '' : 'l' }, t)))),
      el('tbody', null, rows)));
    const legend = el('div', { class: 'legend' }, el('span', null, el('i', { style: 'background:var(--tiu)' }), 'compute only (TIU)'),
      el('span', null, el('i', { style: 'background:var(--overlap)' }), 'compute and transfer overlap'),
      el('span', null, el('i', { style: 'background:var(--gdma)' }), 'transfer only (GDMA/SDMA)'));
    const o = meta.summary.overall;
    const bwCards = el('div', { class: 'cards' },
      card('Parallelism', pct(o.parallelism)), card('TIU working', pct(o.tiu_ratio)), card('uArch rate', pct(o.uarch)),
      card('GDMA DDR', gbps(o.gdma_ddr_gbps) || '\u2014'), card('GDMA L2', gbps(o.gdma_l2_gbps) || '\u2014'),
      has('SDMA') ? card('SDMA DDR', gbps(o.sdma_ddr_gbps) || '\u2014') : null,
      has('CDMA') ? card('CDMA DDR', gbps(o.cdma_ddr_gbps) || '\u2014') : null);

    // CDMA ports and derived rows: busy ratio per lane.
    const other = meta.util.tracks.filter((t) => lanes[t.lane].eng === 'CDMA').map((t) =>
      el('tr', null, el('td', null, lanes[t.lane].label), el('td', null, barCell(spanU > 0 ? t.busy_ns / spanU : NaN, 'cdma')),
        el('td', null, pct(spanU > 0 ? t.busy_ns / spanU : NaN)), el('td', null, num(t.events)), el('td', null, gbps(t.gbps))));

    // Top ops by total time.
    const ops = meta.tables.op.slice(0, 10);
    const maxOp = ops.length ? ops[0][2] : 1;
    const opRows = ops.map((r) => el('tr', null, el('td', null, opName(r[0])),
      el('td', null, barCell(r[2] / maxOp, 'op')), el('td', null, dur(r[2])), el('td', null, num(r[1]))));

    // Idle gaps.
    const gapRows = meta.gaps.lanes.map((g) => [lanes[g[0]].label, g[1], g[2], g[3], spanU > 0 ? g[2] / spanU : NaN]);
    const gapTable = sortableTable([{ t: 'Lane' }, { t: 'Gaps', num: 1, fmt: num }, { t: 'Idle between events', num: 1, fmt: dur },
      { t: 'Longest gap', num: 1, fmt: dur }, { t: 'Idle share', num: 1, fmt: pct }], gapRows, { sortCol: 2, short: true });
    const longest = meta.gaps.longest.map((g) => [lanes[g[0]].label, g[1] - info.origin_ns, g[2] - g[1],
      opName(g[3]) + ' #' + g[4], opName(g[5]) + ' #' + g[6], g]);
    const longTable = sortableTable([{ t: 'Lane' }, { t: 'At', num: 1, fmt: dur }, { t: 'Gap', num: 1, fmt: dur },
      { t: 'After (op #cmd)' }, { t: 'Before (op #cmd)' }], longest,
    { sortCol: 2, limit: 50, short: true, onclick: (r) => { zoomTo(r[5][1], r[5][2], 0.5); scrollToTimeline(); } });

    return section('overview', 'Overview', cards,
      el('h3', null, 'Per core: engine busy time, compute vs transfer, bandwidth'), coreTable, legend, bwCards,
      other.length ? el('div', null, el('h3', null, 'CDMA ports'), el('table', null,
        el('thead', null, el('tr', null, ...['Port', 'Busy', '', 'Events', 'Mean GB/s'].map((t, i) => el('th', { class: i ? '' : 'l' }, t)))),
        el('tbody', null, other))) : null,
      el('div', { class: 'grid2' },
        el('div', null, el('h3', null, 'Top ops by total time'), el('table', null,
          el('thead', null, el('tr', null, el('th', { class: 'l' }, 'Op'), el('th', null, ''), el('th', null, 'Total'), el('th', null, 'Count'))),
          el('tbody', null, opRows))),
        el('div', null, el('h3', null, 'Idle gaps per lane' + (meta.gaps.min_gap_ns > 0 ? ' (\u2265 ' + dur(meta.gaps.min_gap_ns) + ')' : '')), gapTable,
          el('h3', null, 'Longest idle gaps (click to show on the timeline)'), longTable)));
  }

  function diagnostics() {
    const d = meta.diag;
    const counts = d.counts.length ? el('table', null, el('thead', null, el('tr', null, el('th', { class: 'l' }, 'Kind'), el('th', null, 'Count'), el('th', { class: 'l' }, 'Effect'))),
      el('tbody', null, d.counts.map((c) => el('tr', null, el('td', null, c[0]), el('td', null, num(c[1])),
        el('td', { class: 'l ' + (c[2] ? 'bad' : 'muted') }, c[2] ? 'events or data lost' : 'repaired / informational')))))
      : el('p', { class: 'good' }, 'No decode diagnostics: no wraps, no unmatched or invalid records.');
    const notes = d.notes.length ? el('ul', { class: 'notes' }, d.notes.map((n) =>
      el('li', null, n[0] + ': ' + n[1] + (n[2] !== null ? ' @' + n[2] : '') + ' \u2014 ' + n[3]))) : null;
    const props = el('table', null, el('tbody', null,
      [['source', info.source], ['generator', meta.generator], ...info.properties].map((p) => el('tr', null, el('td', null, p[0]), el('td', { class: 'l' }, p[1])))));
    return section('diagnostics', 'Diagnostics and capture', el('div', { class: 'grid2' },
      el('div', null, el('h3', null, 'Decode diagnostics'), counts, notes,
        d.names_overflowed ? el('p', { class: 'bad' }, d.names_overflowed + ' names did not fit the name table') : null),
      el('div', null, el('h3', null, 'Capture properties'), props)));
  }

  // ---------- timeline ----------
  const GUTTER = 150, AXIS = 22, ROW = 16, LANE_PAD = 4;
  const view = { t0: info.begin_ns, t1: info.end_ns > info.begin_ns ? info.end_ns : info.begin_ns + 1 };
  let highlight = null;  // Uint8Array over names, or null
  let selected = null;   // {lane, i}
  const tl = { canvas: null, ctx: null, W: 0, H: 0, laneY: [], dpr: 1, drawMs: 0 };
  const bw = { canvas: null, ctx: null, rows: [], H: 0 };

  function timeline() {
    const search = el('input', { type: 'search', placeholder: 'highlight ops (text or /regex/)' });
    search.addEventListener('input', () => {
      const q = search.value.trim();
      if (!q) highlight = null;
      else {
        let re = null;
        try { re = q.length > 2 && q.startsWith('/') && q.endsWith('/') ? new RegExp(q.slice(1, -1), 'i') : null; } catch (e) { re = null; }
        const lq = q.toLowerCase();
        highlight = Uint8Array.from(names, (s) => (re ? re.test(s) : s.toLowerCase().includes(lq)) ? 1 : 0);
      }
      redraw();
    });
    const btn = (t, f, title) => el('button', { onclick: f, title }, t);
    const bar = el('div', { class: 'toolbar' },
      btn('\u2212', () => zoomBy(2, 0.5), 'zoom out (S)'), btn('+', () => zoomBy(0.5, 0.5), 'zoom in (W)'),
      btn('reset', () => setView(info.begin_ns, info.end_ns), 'whole run (Esc)'), search,
      el('span', { class: 'hint' }, 'drag: pan \u00b7 wheel: zoom \u00b7 shift+wheel or A/D: pan \u00b7 W/S: zoom \u00b7 double-click: zoom in \u00b7 Esc: reset'));
    const canvas = el('canvas', { class: 'timeline', id: 'timeline' });
    tl.canvas = canvas;
    tl.ctx = canvas.getContext('2d');
    const bcanvas = el('canvas', { id: 'bandwidth' });
    bw.canvas = bcanvas;
    bw.ctx = bcanvas.getContext('2d');
    bindInteraction(canvas);
    bindInteraction(bcanvas);
    const legend = el('div', { class: 'legend' }, 'Colour = op name; lanes show the engine colour on the left. Events narrower than a pixel are merged into one column whose opacity is the busy share.');
    return [section('timeline-section', 'Timeline', bar, el('div', { class: 'canvaswrap' }, canvas), legend),
      section('bandwidth-section', 'Bandwidth over time (GB/s, per DMA engine)', el('div', { class: 'canvaswrap' }, bcanvas),
        el('div', { class: 'legend' }, 'Bytes of each transfer spread over its duration; at full view from the precomputed ' +
          dur(meta.bw.window_ns) + ' windows, zoomed in from the events themselves.'))];
  }

  function layoutCanvas() {
    const dpr = window.devicePixelRatio || 1;
    const W = tl.canvas.parentElement.clientWidth || 1200;
    let y = AXIS;
    tl.laneY = lanes.map((L) => { const y0 = y; y += L.rows * ROW + LANE_PAD; return y0; });
    tl.W = W; tl.H = y + 2; tl.dpr = dpr;
    tl.canvas.width = Math.round(W * dpr); tl.canvas.height = Math.round(tl.H * dpr);
    tl.canvas.style.height = tl.H + 'px';
    bw.rows = meta.bw.series.map((s) => ({ lane: lanes[s.lane], data: s.gbps }));
    bw.H = Math.max(40, AXIS + bw.rows.length * 44 + 4);
    bw.canvas.width = Math.round(W * dpr); bw.canvas.height = Math.round(bw.H * dpr);
    bw.canvas.style.height = bw.H + 'px';
    for (const Q of mem.panels) {
      Q.canvas.width = Math.round(W * dpr); Q.canvas.height = Math.round(Q.H * dpr);
      Q.canvas.style.height = Q.H + 'px';
    }
  }

  function niceTicks(t0, t1, px) {
    const span = t1 - t0, target = span / Math.max(2, px / 110);
    const p = Math.pow(10, Math.floor(Math.log10(target)));
    const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= target) || 10 * p;
    const ticks = [];
    for (let t = Math.ceil((t0 - info.origin_ns) / step) * step; t + info.origin_ns <= t1; t += step) ticks.push(t);
    return ticks;
  }
  function drawAxis(ctx, W, H) {
    const s = (W - GUTTER) / (view.t1 - view.t0);
    ctx.fillStyle = '#f0f2f5'; ctx.fillRect(0, 0, W, AXIS);
    ctx.fillStyle = '#667085'; ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'middle';
    ctx.strokeStyle = '#e4e7ec'; ctx.lineWidth = 1;
    for (const t of niceTicks(view.t0, view.t1, W - GUTTER)) {
      const x = Math.round(GUTTER + (t + info.origin_ns - view.t0) * s) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, AXIS - 5); ctx.lineTo(x, H); ctx.stroke();
      ctx.fillText(dur(t), x + 3, AXIS / 2);
    }
    ctx.fillStyle = '#1d2330';
    ctx.fillText(dur(view.t1 - view.t0) + ' shown', 6, AXIS / 2);
  }

  function drawTimeline() {
    const t_start = performance.now();
    const { ctx, W, H, dpr } = tl;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
    drawAxis(ctx, W, H);
    const t0 = view.t0, t1 = view.t1, plotW = W - GUTTER, s = plotW / (t1 - t0);
    const cov = new Float32Array(plotW + 1), best = new Float32Array(plotW + 1), bestOp = new Uint16Array(plotW + 1);
    const touched = new Int32Array(plotW + 1);
    ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'middle';
    lanes.forEach((L, li) => {
      const y0 = tl.laneY[li], h = L.rows * ROW;
      ctx.fillStyle = li % 2 ? '#fafbfc' : '#fff'; ctx.fillRect(GUTTER, y0, plotW, h);
      ctx.fillStyle = L.color; ctx.fillRect(0, y0, 4, h);
      ctx.fillStyle = '#1d2330'; ctx.fillText(L.label, 8, y0 + Math.min(h, ROW) / 2);
      if (L.rows > 1) { ctx.fillStyle = '#98a2b3'; ctx.fillText(L.hw ? 'overlapping' : 'nested', 8, y0 + ROW * 1.5); }
      ctx.save();
      ctx.beginPath(); ctx.rect(GUTTER, y0, plotW, h); ctx.clip();
      for (let d = 0; d < L.rows; d++) drawRow(L, d, y0 + d * ROW, t0, t1, s, cov, best, bestOp, touched, plotW);
      ctx.restore();
      ctx.strokeStyle = '#eceff3'; ctx.beginPath(); ctx.moveTo(0, y0 + h + LANE_PAD / 2 + 0.5); ctx.lineTo(W, y0 + h + LANE_PAD / 2 + 0.5); ctx.stroke();
    });
    if (critOn) drawCriticalPath(t0, s, plotW);
    tl.drawMs = performance.now() - t_start;
  }

  function drawRow(L, d, y, t0, t1, s, cov, best, bestOp, touched, plotW) {
    const ctx = tl.ctx, b = L.b, e = L.e, depth = L.depth, n = L.n;
    const ops = L.cols.op, opConst = typeof ops === 'number';
    let nt = 0;
    const rowH = ROW - 2;
    let i = firstVisible(L, t0);
    for (; i < n; i++) {
      const bi = b[i];
      if (bi > t1) break;
      if (depth[i] !== d) continue;
      const ei = e[i];
      if (ei < t0) continue;
      const x0 = (bi - t0) * s, x1 = (ei - t0) * s, w = x1 - x0;
      const op = opConst ? ops : ops[i];
      if (w >= 1.5) {
        const a = Math.max(x0, -1), z = Math.min(x1, plotW + 1);
        const dim = highlight && !highlight[op];
        ctx.globalAlpha = dim ? 0.15 : 1;
        ctx.fillStyle = nameColor[op];
        ctx.fillRect(GUTTER + a, y + 1, Math.max(1, z - a - (w > 4 ? 1 : 0)), rowH);
        if (z - a > 48 && !dim) {
          ctx.fillStyle = '#111';
          const label = names[op] || 'unknown';
          ctx.save(); ctx.beginPath(); ctx.rect(GUTTER + a, y, z - a - 2, ROW); ctx.clip();
          ctx.fillText(label, GUTTER + Math.max(a, 0) + 3, y + ROW / 2);
          ctx.restore();
        }
      } else {
        let c = Math.floor(x0);
        if (c < 0) c = 0; else if (c > plotW) c = plotW;
        if (cov[c] === 0) touched[nt++] = c;
        cov[c] += Math.max(w, 0.05);
        if (w >= best[c] && !(highlight && !highlight[op])) { best[c] = w; bestOp[c] = op; }
      }
    }
    ctx.globalAlpha = 1;
    for (let k = 0; k < nt; k++) {
      const c = touched[k];
      const dim = highlight && best[c] === 0;
      ctx.globalAlpha = dim ? 0.12 : Math.min(1, 0.35 + cov[c]);
      ctx.fillStyle = nameColor[bestOp[c]];
      ctx.fillRect(GUTTER + c, y + 1, 1, rowH);
      cov[c] = 0; best[c] = 0; bestOp[c] = 0;
    }
    ctx.globalAlpha = 1;
    if (selected && selected.lane === L && depth[selected.i] === d) {
      const x0 = (b[selected.i] - t0) * s, x1 = (e[selected.i] - t0) * s;
      ctx.strokeStyle = '#c01048'; ctx.lineWidth = 2;
      ctx.strokeRect(GUTTER + Math.max(x0, -2) - 1, y, Math.max(2, Math.min(x1, plotW + 2) - Math.max(x0, -2)) + 2, ROW);
      ctx.lineWidth = 1;
    }
  }

  // ---------- critical path (meta.crit, present with dependency data: docs/analysis.md) ----------
  let critOn = false;  // outline the path on the timeline
  const CRIT_VIA = ['start', 'engine order', 'dependency', 'sync'];
  // Outlines the path's commands and joins each to the one it waited for (dependency, sync).
  function drawCriticalPath(t0, s, plotW) {
    const ctx = tl.ctx;
    let prev = null;
    ctx.save();
    ctx.beginPath(); ctx.rect(GUTTER, AXIS, plotW, tl.H); ctx.clip();
    ctx.strokeStyle = '#f04438'; ctx.lineWidth = 2;
    for (const [li, i, via] of meta.crit.path) {
      const L = lanes[li];
      if (!L || i >= L.n) { prev = null; continue; }
      const x0 = GUTTER + (L.b[i] - t0) * s, x1 = GUTTER + (L.e[i] - t0) * s;
      const y = tl.laneY[li] + L.depth[i] * ROW;
      if (x1 >= GUTTER - 2 && x0 <= GUTTER + plotW + 2) ctx.strokeRect(x0 - 1, y, Math.max(2, x1 - x0 + 2), ROW);
      if (prev && via >= 2) {
        ctx.beginPath(); ctx.moveTo(prev.x, prev.y); ctx.lineTo(x0, y + ROW / 2); ctx.stroke();
      }
      prev = { x: x1, y: y + ROW / 2 };
    }
    ctx.restore();
  }
  function critPathSection() {
    const c = meta.crit;
    if (!c) return null;
    const share = (v) => (c.span_ns > 0 ? (100 * v / c.span_ns).toFixed(1) + '%' : '');
    const toggle = el('input', { type: 'checkbox', id: 'crit-toggle' });
    toggle.addEventListener('change', () => { critOn = toggle.checked; redraw(); });
    const viaCount = [0, 0, 0, 0];
    for (const p of c.path) viaCount[p[2]]++;
    const rows = c.by_engine.map(([e, v]) => [e, v, v]).concat([['latency', c.latency_ns, c.latency_ns]]);
    const byEng = sortableTable([{ t: 'engine' }, { t: 'on the path', num: true, fmt: dur }, { t: 'share of the span', num: true, fmt: share }], rows, { short: true });
    const causes = ['dependency', 'sync', 'dispatch', 'edge', 'unknown'];
    const idle = sortableTable([{ t: 'dev', num: true }, { t: 'core', num: true }, { t: 'engine' }, { t: 'idle', num: true, fmt: dur }]
      .concat(causes.map((k) => ({ t: k, num: true, fmt: dur }))), c.idle, { short: true });
    const deps = c.data ? c.deps[0] + ' dependencies resolved, ' + c.deps[1] + ' none, ' + c.deps[2] + ' unresolved, ' + c.deps[3] + ' violations'
      : 'no dependency data: engine order only';
    return section('critical-path', 'Critical path and idle causes',
      el('p', null, 'The chain of commands that set the span (' + dur(c.span_ns) + '): ' + c.path.length + ' commands, ' +
        viaCount[2] + ' reached by a dependency, ' + viaCount[3] + ' by a sync message; ' + deps + '. Analysed on shared-counter times.'),
      el('label', null, toggle, ' outline the critical path on the timeline'),
      el('h3', null, 'Critical path by engine'), byEng,
      el('h3', null, 'Idle time of each engine by cause'), idle);
  }

  // Bandwidth rows: precomputed series when zoomed out, the events when zoomed in.
  function bwBins(row, nb) {
    const out = new Float64Array(nb), t0 = view.t0, t1 = view.t1, bin = (t1 - t0) / nb;
    const w = meta.bw.window_ns, o = meta.bw.origin_ns, data = row.data;
    if (bin >= w * 2 || !row.lane.n) {
      for (let k = 0; k < nb; k++) {
        const a = t0 + k * bin, z = a + bin;
        let i0 = Math.max(0, Math.floor((a - o) / w)), i1 = Math.min(data.length, Math.ceil((z - o) / w));
        let sum = 0, tw = 0;
        for (let i = i0; i < i1; i++) {
          const wa = o + i * w, wz = wa + w, ov = Math.min(z, wz) - Math.max(a, wa);
          if (ov > 0 && data[i] !== null) { sum += data[i] * ov; tw += ov; }
        }
        out[k] = tw > 0 ? sum / bin : 0;
      }
      return out;
    }
    const L = row.lane, by = L.cols.by, b = L.b, e = L.e;
    for (let i = firstVisible(L, t0); i < L.n && b[i] <= t1; i++) {
      const bytesI = typeof by === 'number' ? by : by[i];
      if (!bytesI || e[i] < t0) continue;
      const d = e[i] - b[i];
      if (!(d > 0)) { const k = Math.floor((b[i] - t0) / bin); if (k >= 0 && k < nb) out[k] += bytesI / bin; continue; }
      const rate = bytesI / d;
      let k = Math.max(0, Math.floor((b[i] - t0) / bin));
      for (; k < nb; k++) {
        const a = t0 + k * bin, z = a + bin;
        if (a >= e[i]) break;
        const ov = Math.min(z, e[i]) - Math.max(a, b[i]);
        if (ov > 0) out[k] += rate * ov / bin;
      }
    }
    return out;
  }
  function drawBandwidth() {
    const { ctx } = bw, W = tl.W, dpr = tl.dpr, H = bw.H;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
    drawAxis(ctx, W, H);
    const plotW = W - GUTTER, nb = Math.max(1, Math.floor(plotW / 2));
    ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'middle';
    bw.cache = [];
    bw.rows.forEach((row, r) => {
      const y0 = AXIS + r * 44 + 2, h = 40;
      const bins = bwBins(row, nb);
      bw.cache.push(bins);
      let peak = 0;
      for (const v of bins) if (v > peak) peak = v;
      ctx.fillStyle = r % 2 ? '#fafbfc' : '#fff'; ctx.fillRect(GUTTER, y0, plotW, h);
      ctx.fillStyle = row.lane.color; ctx.fillRect(0, y0, 4, h);
      ctx.fillStyle = '#1d2330'; ctx.fillText(row.lane.label, 8, y0 + 12);
      ctx.fillStyle = '#667085'; ctx.fillText('peak ' + peak.toFixed(2) + ' GB/s', 8, y0 + 28);
      if (peak <= 0) return;
      ctx.beginPath(); ctx.moveTo(GUTTER, y0 + h);
      for (let k = 0; k < nb; k++) {
        const yv = y0 + h - (bins[k] / peak) * (h - 4);
        ctx.lineTo(GUTTER + k * (plotW / nb), yv); ctx.lineTo(GUTTER + (k + 1) * (plotW / nb), yv);
      }
      ctx.lineTo(GUTTER + plotW, y0 + h); ctx.closePath();
      ctx.globalAlpha = 0.75; ctx.fillStyle = row.lane.color; ctx.fill(); ctx.globalAlpha = 1;
    });
  }

  // ---------- memory charts (LOCAL MEM / GLOBAL MEM) ----------
  // Each memory operand of a command is a rectangle: x = the command's time,
  // y = the addresses it covers, inside the band (bank, buffer) that holds it.
  // Streams per lane: varints event index (delta), address (zigzag delta),
  // size, flags (kind | write << 3 | operand << 4); see report/detail/report_writer.hpp.
  const MEM_BAND_LOCAL = 18, MEM_R = [47, 158, 68], MEM_W = [214, 39, 40];
  const mem = { panels: [] };
  function decodeMem() {
    const M = meta.mem, dataEl = document.getElementById('tpuprof-mem');
    if (!M) return;
    const buf = dataEl ? base64Bytes(dataEl.textContent) : new Uint8Array(0);
    if (dataEl) dataEl.textContent = '';
    let p = 0;
    const varint = () => {
      let b = buf[p++], z = b & 0x7f, mul = 128;
      while (b & 0x80) { b = buf[p++]; z += (b & 0x7f) * mul; mul *= 128; }
      return z;
    };
    M.panels.forEach((P, pi) => {
      const n = P.n;
      if (!n) return;
      const lane = new Uint16Array(n), ev = new Uint32Array(n), addr = new Float64Array(n), size = new Float64Array(n),
        fl = new Uint16Array(n), b = new Float64Array(n), e = new Float64Array(n);
      let k = 0;
      const runs = [];
      for (const [lp, cnt, off] of P.lanes) {
        p = off;
        runs.push([k, k + cnt]);
        const L = lanes[lp];
        let evi = 0, a = 0;
        for (let j = 0; j < cnt; j++, k++) {
          evi += varint();
          const z = varint();
          a += z % 2 === 1 ? -(z + 1) / 2 : z / 2;
          lane[k] = lp; ev[k] = evi; addr[k] = a; size[k] = varint(); fl[k] = varint();
          b[k] = L.b[evi]; e[k] = L.e[evi];
        }
      }
      // Time order (for the visible range and hit tests), then block maxima of the ends.
      const order = mergeRuns(b, runs, n);
      const re = (a0, T) => { const o = new T(n); for (let i = 0; i < n; i++) o[i] = a0[order[i]]; return o; };
      const Q = { pi, name: P.name, n, lane: re(lane, Uint16Array), ev: re(ev, Uint32Array), addr: re(addr, Float64Array),
        size: re(size, Float64Array), fl: re(fl, Uint16Array), b: re(b, Float64Array), e: re(e, Float64Array),
        bands: P.bands.map(([a0, s, nm]) => ({ addr: a0, size: s, name: nm })), local: pi === 0,
        canvas: null, ctx: null, H: 0, y0: null, y1: null, drawMs: 0, mode: '' };
      const nb = Math.ceil(n / BLOCK), bm = new Float64Array(nb);
      let run = -Infinity;
      for (let kb = 0; kb < nb; kb++) {
        const end = Math.min(n, (kb + 1) * BLOCK);
        for (let i = kb * BLOCK; i < end; i++) if (Q.e[i] > run) run = Q.e[i];
        bm[kb] = run;
      }
      Q.blockMax = bm;
      mem.panels.push(Q);
    });
  }
  // Indices 0..n-1 ordered by b, given runs [s, e) that are each ordered
  // already (a lane's operands follow its events): pairwise merges, stable.
  function mergeRuns(b, runs, n) {
    let cur = new Uint32Array(n), tmp = new Uint32Array(n);
    for (let i = 0; i < n; i++) cur[i] = i;
    while (runs.length > 1) {
      const next = [];
      for (let r = 0; r < runs.length; r += 2) {
        const [s1, e1] = runs[r];
        if (r + 1 === runs.length) { tmp.set(cur.subarray(s1, e1), s1); next.push(runs[r]); continue; }
        const e2 = runs[r + 1][1];
        let i = s1, j = e1, o = s1;
        while (i < e1 && j < e2) tmp[o++] = b[cur[j]] < b[cur[i]] ? cur[j++] : cur[i++];
        while (i < e1) tmp[o++] = cur[i++];
        while (j < e2) tmp[o++] = cur[j++];
        next.push([s1, e2]);
      }
      [cur, tmp] = [tmp, cur];
      runs = next;
    }
    return cur;
  }
  const hex = (v) => '0x' + Math.round(v).toString(16);
  // Band heights (local: equal, at least 18 px; global: by the square root of
  // the size, 26 to 120 px) and
  // each rectangle's rows (CSS px inside the plot).
  function layoutMem(Q) {
    const roots = Q.bands.map((B) => Math.sqrt(B.size)), total = roots.reduce((a, r) => a + r, 0) || 1;
    Q.bandH = Q.bands.map((_, i) => Q.local ? Math.max(MEM_BAND_LOCAL, Math.min(120, Math.floor(300 / Q.bands.length)))
      : Math.round(Math.max(26, Math.min(120, 400 * roots[i] / total))));
    let yb = 0;
    Q.bandY = Q.bandH.map((h) => { const y = yb; yb += h; return y; });
    Q.H = AXIS + yb + 2;
    const starts = Q.bands.map((x) => x.addr);
    const y0 = new Float32Array(Q.n), y1 = new Float32Array(Q.n);
    for (let i = 0; i < Q.n; i++) {
      const a = Q.addr[i];
      let j = upperBound(starts, starts.length, a) - 1;
      if (j < 0) j = 0;
      const B = Q.bands[j], h = Q.bandH[j] - 1, sc = B.size > 0 ? h / B.size : 0;
      const top = Q.bandY[j] + Math.max(0, Math.min(h, (a - B.addr) * sc));
      const bot = Q.bandY[j] + Math.max(0, Math.min(h, (a + Q.size[i] - B.addr) * sc));
      y0[i] = top; y1[i] = Math.max(bot, top + 1);
    }
    Q.y0 = y0; Q.y1 = y1;
  }
  function memFirstVisible(Q, t0) {
    let lo = 0, hi = Q.blockMax.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (Q.blockMax[m] < t0) lo = m + 1; else hi = m; }
    return lo * BLOCK;
  }
  function drawMem(Q) {
    const t_start = performance.now();
    const { ctx } = Q, W = tl.W, dpr = tl.dpr, H = Q.H;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
    drawAxis(ctx, W, H);
    const t0 = view.t0, t1 = view.t1, plotW = W - GUTTER, s = plotW / (t1 - t0);
    ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'middle';
    Q.bands.forEach((B, j) => {
      const y = AXIS + Q.bandY[j];
      const bh = Q.bandH[j];
      ctx.fillStyle = j % 2 ? '#fafbfc' : '#fff'; ctx.fillRect(GUTTER, y, plotW, bh - 1);
      ctx.fillStyle = '#eceff3'; ctx.fillRect(0, y + bh - 1, W, 1);
      ctx.fillStyle = '#1d2330';
      ctx.fillText(B.name.length > 22 ? B.name.slice(0, 21) + '\u2026' : B.name, 6, y + Math.min(bh, 18) / 2);
      if (bh >= 30) { ctx.fillStyle = '#98a2b3'; ctx.fillText(hex(B.addr) + ' \u00b7 ' + bytes(B.size), 6, y + 24); }
    });
    // visible rectangles
    let first = memFirstVisible(Q, t0), last = first, count = 0;
    for (; last < Q.n && Q.b[last] <= t1; last++) if (Q.e[last] >= t0) count++;
    ctx.save(); ctx.beginPath(); ctx.rect(GUTTER, AXIS, plotW, H - AXIS); ctx.clip();
    if (count <= 4000) {  // each rectangle drawn
      Q.mode = 'rects';
      for (let i = first; i < last; i++) {
        if (Q.e[i] < t0) continue;
        const x0 = Math.max(-2, (Q.b[i] - t0) * s), x1 = Math.min(plotW + 2, (Q.e[i] - t0) * s);
        const w = Math.max(1, x1 - x0), y = AXIS + Q.y0[i], h = Q.y1[i] - Q.y0[i];
        const c = Q.fl[i] & 8 ? MEM_W : MEM_R;
        ctx.fillStyle = 'rgba(' + c[0] + ',' + c[1] + ',' + c[2] + ',0.55)';
        ctx.fillRect(GUTTER + x0, y, w, h);
        if (w > 4 && h > 3) { ctx.strokeStyle = 'rgba(255,255,255,0.9)'; ctx.strokeRect(GUTTER + x0 + 0.5, y + 0.5, w - 1, h - 1); }
      }
    } else {  // density raster: per pixel the reads and writes covering it
      Q.mode = 'raster';
      const gw = Math.max(1, Math.floor(plotW)), gh = Math.max(1, Math.floor(H - AXIS));
      const rd = new Float32Array(gw * gh), wr = new Float32Array(gw * gh);
      for (let i = first; i < last; i++) {
        if (Q.e[i] < t0) continue;
        let xa = Math.floor((Q.b[i] - t0) * s), xb = Math.ceil((Q.e[i] - t0) * s);
        if (xb <= xa) xb = xa + 1;
        if (xa < 0) xa = 0; if (xb > gw) xb = gw;
        if (xa >= xb) continue;
        const ya = Math.max(0, Math.floor(Q.y0[i])), yb = Math.min(gh, Math.max(ya + 1, Math.ceil(Q.y1[i])));
        const g = Q.fl[i] & 8 ? wr : rd;
        for (let y = ya; y < yb; y++) { const row = y * gw; for (let x = xa; x < xb; x++) g[row + x] += 1; }
      }
      const off = document.createElement('canvas');
      off.width = gw; off.height = gh;
      const octx = off.getContext('2d'), img = octx.createImageData(gw, gh), px = img.data;
      for (let k = 0, q = 0; k < gw * gh; k++, q += 4) {
        const r = rd[k], w = wr[k];
        if (r === 0 && w === 0) continue;
        const f = w / (r + w);
        px[q] = MEM_R[0] + (MEM_W[0] - MEM_R[0]) * f; px[q + 1] = MEM_R[1] + (MEM_W[1] - MEM_R[1]) * f;
        px[q + 2] = MEM_R[2] + (MEM_W[2] - MEM_R[2]) * f; px[q + 3] = Math.min(255, 110 + 40 * (r + w));
      }
      octx.putImageData(img, 0, 0);
      ctx.drawImage(off, GUTTER, AXIS, gw, gh);
    }
    ctx.restore();
    Q.visible = count;
    Q.drawMs = performance.now() - t_start;
  }
  function drawMemory() { for (const Q of mem.panels) drawMem(Q); }
  // The operand under a point of a memory chart: its index or -1 (the smallest one there).
  function memHit(Q, cx, cy) {
    const r = Q.canvas.getBoundingClientRect(), x = cx - r.left - GUTTER, y = cy - r.top - AXIS;
    if (x < 0 || y < 0) return -1;
    const s = (r.width - GUTTER) / (view.t1 - view.t0), t = view.t0 + x / s, tol = 2 / s;
    let best = -1, bestArea = Infinity;
    for (let i = memFirstVisible(Q, t - tol), seen = 0; i < Q.n && Q.b[i] <= t + tol && seen < 200000; i++, seen++) {
      if (Q.e[i] < t - tol || y < Q.y0[i] - 1 || y > Q.y1[i] + 1) continue;
      const area = (Q.e[i] - Q.b[i] + tol) * (Q.y1[i] - Q.y0[i] + 1);
      if (area < bestArea) { bestArea = area; best = i; }
    }
    return best;
  }
  function memFields(Q, i) {
    const L = lanes[Q.lane[i]], k = Q.ev[i], fl = Q.fl[i];
    const kind = meta.mem.kinds[fl & 7] || 'unknown';
    const b = L.b[k], e = L.e[k];
    return [['op', opName(colv(L, 'op', k))], ['engine', L.label], ['cmd id', String(colv(L, 'id', k))],
      ['access', fl & 8 ? 'write' : 'read'], ['operand', String(fl >> 4)],
      ['memory', kind + (Q.local ? ' (offset in each lane)' : '')],
      ['address', hex(Q.addr[i]) + ' (' + num(Q.addr[i]) + ')'], ['size', num(Q.size[i]) + ' B (' + bytes(Q.size[i]) + ')'],
      ['end', hex(Q.addr[i] + Q.size[i])],
      ['begin', (b - info.origin_ns).toFixed(3) + ' ns'], ['duration', (e - b).toFixed(3) + ' ns (' + dur(e - b) + ')']];
  }
  function memorySection() {
    if (!mem.panels.length) return null;
    const kids = [];
    for (const Q of mem.panels) {
      Q.canvas = el('canvas', { class: 'memchart', id: Q.local ? 'lmem' : 'gmem' });
      Q.ctx = Q.canvas.getContext('2d');
      bindInteraction(Q.canvas);
      layoutMem(Q);
      kids.push(el('h3', null, Q.name + ' \u00b7 ' + num(Q.n) + ' operands' + (Q.local ? ' \u00b7 offsets inside a lane, per bank' : ' \u00b7 address bands: buffers in use')), el('div', { class: 'canvaswrap' }, Q.canvas));
    }
    const dropped = meta.mem.dropped;
    return section('memory-section', 'Memory over time (x: time, shared with the timeline; y: address)', ...kids,
      el('div', { class: 'legend' }, el('span', null, el('i', { style: 'background:rgb(' + MEM_R + ')' }), 'read'),
        el('span', null, el('i', { style: 'background:rgb(' + MEM_W + ')' }), 'written'),
        'Each operand of a command covers its addresses for the command\u2019s duration; when zoomed out, overlapping operands add up (more opaque).',
        dropped ? el('span', { class: 'bad' }, num(dropped) + ' operands past the report\u2019s limit are not drawn') : null));
  }

  let pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; drawTimeline(); drawBandwidth(); drawMemory(); });
  }
  function drawNow() { drawTimeline(); drawBandwidth(); drawMemory(); }
  function setView(t0, t1) {
    const minSpan = 1;
    const full0 = info.begin_ns, full1 = Math.max(info.end_ns, info.begin_ns + 1);
    if (t1 - t0 < minSpan) { const m = (t0 + t1) / 2; t0 = m - minSpan / 2; t1 = m + minSpan / 2; }
    const span = Math.min(t1 - t0, (full1 - full0) * 1.02);
    if (t0 < full0 - span * 0.5) t0 = full0 - span * 0.5;
    if (t0 + span > full1 + span * 0.5) t0 = full1 + span * 0.5 - span;
    view.t0 = t0; view.t1 = t0 + span;
    redraw();
  }
  function zoomBy(f, at) {
    const t = view.t0 + (view.t1 - view.t0) * at;
    setView(t - (t - view.t0) * f, t + (view.t1 - t) * f);
  }
  function zoomTo(b, e, margin) {
    const d = Math.max(e - b, 1);
    setView(b - d * margin, e + d * margin);
  }
  function scrollToTimeline() { tl.canvas.scrollIntoView({ block: 'center' }); }

  function bindInteraction(canvas) {
    let drag = null;
    const frac = (ev) => { const r = canvas.getBoundingClientRect(); return Math.max(0, Math.min(1, (ev.clientX - r.left - GUTTER) / (r.width - GUTTER))); };
    canvas.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
        const d = (ev.shiftKey ? ev.deltaY : ev.deltaX) / 800 * (view.t1 - view.t0);
        setView(view.t0 + d, view.t1 + d);
      } else {
        zoomBy(Math.pow(1.0015, ev.deltaY), frac(ev));
      }
    }, { passive: false });
    canvas.addEventListener('mousedown', (ev) => { drag = { x: ev.clientX, t0: view.t0, t1: view.t1, moved: false }; canvas.classList.add('dragging'); });
    window.addEventListener('mouseup', () => { if (drag) { canvas.classList.remove('dragging'); drag = null; } });
    window.addEventListener('mousemove', (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x;
      if (Math.abs(dx) > 2) drag.moved = true;
      const r = canvas.getBoundingClientRect();
      const dt = -dx / (r.width - GUTTER) * (drag.t1 - drag.t0);
      setView(drag.t0 + dt, drag.t1 + dt);
    });
    canvas.addEventListener('dblclick', (ev) => zoomBy(0.25, frac(ev)));
    canvas.addEventListener('mousemove', (ev) => { if (!drag) hover(canvas, ev.clientX, ev.clientY); });
    canvas.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
    canvas.addEventListener('click', (ev) => {
      if (canvas !== tl.canvas) return;
      const hit = hitTest(ev.clientX, ev.clientY);
      selected = hit; redraw();
    });
  }
  window.addEventListener('keydown', (ev) => {
    if (ev.target && ev.target.tagName === 'INPUT') return;
    const k = ev.key.toLowerCase(), span = view.t1 - view.t0;
    if (k === 'w') zoomBy(0.7, 0.5);
    else if (k === 's') zoomBy(1 / 0.7, 0.5);
    else if (k === 'a') setView(view.t0 - span * 0.2, view.t1 - span * 0.2);
    else if (k === 'd') setView(view.t0 + span * 0.2, view.t1 + span * 0.2);
    else if (k === 'escape') setView(info.begin_ns, info.end_ns);
  });
  window.addEventListener('resize', () => { layoutCanvas(); drawNow(); });

  // The event under a point of the timeline: {lane, i} or null.
  function hitTest(cx, cy) {
    const r = tl.canvas.getBoundingClientRect();
    const x = cx - r.left - GUTTER, y = cy - r.top;
    if (x < 0 || y < AXIS) return null;
    let li = -1;
    for (let k = 0; k < lanes.length; k++) if (y >= tl.laneY[k] && y < tl.laneY[k] + lanes[k].rows * ROW) { li = k; break; }
    if (li < 0) return null;
    const L = lanes[li], d = Math.floor((y - tl.laneY[li]) / ROW);
    const s = (r.width - GUTTER) / (view.t1 - view.t0), t = view.t0 + x / s, tol = 3 / s;
    let bestI = -1, bestDist = Infinity;
    const hi = upperBound(L.b, L.n, t + tol);
    for (let i = Math.min(hi, L.n) - 1, seen = 0; i >= 0 && seen < 4096; i--, seen++) {
      if (L.e[i] < t - tol) { if (L.blockMax[Math.floor(i / BLOCK)] < t - tol) break; continue; }
      if (L.depth[i] !== d) continue;
      const dist = t < L.b[i] ? L.b[i] - t : t > L.e[i] ? t - L.e[i] : 0;
      if (dist < bestDist || (dist === bestDist && dist === 0 && L.e[i] - L.b[i] < L.e[bestI] - L.b[bestI])) { bestDist = dist; bestI = i; }
    }
    return bestI >= 0 && bestDist <= tol ? { lane: L, i: bestI } : null;
  }

  // Tooltip fields of event i of lane L, as [label, text] pairs.
  function eventFields(L, i) {
    const f = [];
    const op = colv(L, 'op', i), ty = colv(L, 'ty', i), fl = colv(L, 'fl', i), byt = colv(L, 'by', i);
    const [bc, ec] = cyclesOf(L, i);
    const b = L.b[i], e = L.e[i], d = e - b;
    f.push(['op', opName(op)]);
    if (ty) f.push(['op type', names[ty]]);
    f.push(['engine', L.label]);
    if (L.hw) f.push(['cmd id', String(colv(L, 'id', i))]);
    f.push(['begin', (b - info.begin_ns).toFixed(3) + ' ns (' + b.toFixed(3) + ' ns abs)']);
    f.push(['end', (e - info.begin_ns).toFixed(3) + ' ns']);
    f.push(['duration', d.toFixed(3) + ' ns (' + dur(d) + ')']);
    f.push(['cycles', String(ec - bc) + ' (' + bc + ' \u2192 ' + ec + ' @ ' + L.freq + ' MHz)']);
    if (fl & 0x20) {
      f.push(['bytes', num(byt) + ' (' + bytes(byt) + ')']);
      f.push(['bandwidth', d > 0 ? (byt / d).toFixed(3) + ' GB/s' : 'unknown']);
    }
    const dir = fl & 0x0f;
    if (dir) f.push(['direction', meta.dirs[dir] + ' (' + meta.dirs_long[dir] + ')']);
    const ua = colv(L, 'ua', i);
    if (L.eng === 'TIU' || ua) f.push(['uArch rate', ua ? ((ua - 1) / 100).toFixed(2) + '%' : 'unknown']);
    const ly = colv(L, 'ly', i);
    if (ly >= 0) f.push(['layer', String(ly)]);
    const fn = colv(L, 'fn', i);
    if (fn) f.push(['function', names[fn]]);
    const gr = colv(L, 'gr', i);
    if (gr) f.push(['group', String(gr)]);
    if (L.hw && !(fl & 0x10)) f.push(['matched', 'no: PMU record without command']);
    if (fl & 0x40) f.push(['invalid', 'record carries 0xFFFFFFFF fields']);
    return f;
  }
  function showTip(title, fields, cx, cy) {
    tip.textContent = '';
    tip.appendChild(el('div', { class: 't' }, title));
    tip.appendChild(el('table', null, el('tbody', null, fields.map(([k, v]) => el('tr', null, el('th', null, k), el('td', null, v))))));
    tip.style.display = 'block';
    const w = tip.offsetWidth, h = tip.offsetHeight;
    let x = cx + 14, y = cy + 14;
    if (x + w > window.innerWidth - 4) x = cx - w - 14;
    if (y + h > window.innerHeight - 4) y = Math.max(4, cy - h - 14);
    tip.style.left = x + 'px'; tip.style.top = y + 'px';
  }
  function hover(canvas, cx, cy) {
    const Q = mem.panels.find((x) => x.canvas === canvas);
    if (Q) {
      const i = memHit(Q, cx, cy);
      if (i < 0) { tip.style.display = 'none'; return; }
      showTip(Q.name + ': ' + (Q.fl[i] & 8 ? 'write' : 'read'), memFields(Q, i), cx, cy);
      return;
    }
    if (canvas === tl.canvas) {
      const hit = hitTest(cx, cy);
      if (!hit) { tip.style.display = 'none'; return; }
      showTip(opName(colv(hit.lane, 'op', hit.i)), eventFields(hit.lane, hit.i), cx, cy);
      return;
    }
    const r = canvas.getBoundingClientRect(), x = cx - r.left - GUTTER, y = cy - r.top - AXIS;
    const row = Math.floor(y / 44);
    if (x < 0 || y < 0 || row >= bw.rows.length || !bw.cache) { tip.style.display = 'none'; return; }
    const bins = bw.cache[row], k = Math.min(bins.length - 1, Math.floor(x / ((r.width - GUTTER) / bins.length)));
    const t = view.t0 + (x / (r.width - GUTTER)) * (view.t1 - view.t0);
    showTip(bw.rows[row].lane.label, [['time', dur(t - info.begin_ns)], ['bandwidth', bins[k].toFixed(3) + ' GB/s']], cx, cy);
  }

  // ---------- tables ----------
  function tables() {
    const T = meta.tables;
    const evHeaders = [{ t: 'Lane' }, { t: 'Op' }, { t: 'Cmd id', num: 1 }, { t: 'Begin', num: 1, fmt: dur },
      { t: 'Duration', num: 1, fmt: dur }, { t: 'Bytes', num: 1, fmt: num }, { t: 'GB/s', num: 1, fmt: (v) => fixed(v, 3) }];
    const evRows = (rows) => rows.map((r) => [lanes[r[0]].label, opName(r[3]), r[4], r[1] - info.begin_ns, r[2] - r[1], r[5], r[6], r]);
    const focusRow = (r) => { const raw = r[7]; const L = lanes[raw[0]]; const i = findEvent(L.idx, raw[4], raw[1]); if (i >= 0) { selected = { lane: L, i }; } zoomTo(raw[1], raw[2], 2); scrollToTimeline(); };
    const groupHeaders = (first, nameFmt) => [{ t: first, fmt: nameFmt }, { t: 'Count', num: 1, fmt: num }, { t: 'Total', num: 1, fmt: dur },
      { t: 'Mean', num: 1, fmt: dur }, { t: 'Min', num: 1, fmt: dur }, { t: 'Max', num: 1, fmt: dur }, { t: 'p50', num: 1, fmt: dur },
      { t: 'p99', num: 1, fmt: dur }, { t: 'Bytes', num: 1, fmt: (v) => (v ? num(v) : '') }, { t: 'uArch rate', num: 1, fmt: (v) => (v === null ? '' : pct(v)) }];
    const nameRows = (rows) => rows.map((r) => [r[0] ? names[r[0]] : '(none)', ...r.slice(1)]);
    const tracks = meta.util.tracks.map((t) => [lanes[t.lane].label, t.events, t.busy_ns, meta.util.span_ns > 0 ? t.busy_ns / meta.util.span_ns : NaN, t.bytes === undefined ? null : t.bytes, t.gbps === undefined ? null : t.gbps]);
    const tabs = [
      ['Top by duration', () => sortableTable(evHeaders, evRows(T.top_duration), { sortCol: 4, onclick: focusRow })],
      ['Top by bandwidth', () => sortableTable(evHeaders, evRows(T.top_bandwidth), { sortCol: 6, onclick: focusRow })],
      ['By op', () => sortableTable(groupHeaders('Op'), nameRows(T.op), { sortCol: 2 })],
      ['By op type', () => sortableTable(groupHeaders('Op type'), nameRows(T.op_type), { sortCol: 2 })],
      ['By function', () => sortableTable(groupHeaders('Function'), nameRows(T.function), { sortCol: 2 })],
      ['By layer', () => sortableTable(groupHeaders('Layer'), T.layer.map((r) => [r[0] < 0 ? '(none)' : r[0], ...r.slice(1)]), { sortCol: 2 })],
      ['Lanes', () => sortableTable([{ t: 'Lane' }, { t: 'Events', num: 1, fmt: num }, { t: 'Busy', num: 1, fmt: dur }, { t: 'Busy share', num: 1, fmt: pct },
        { t: 'Bytes', num: 1, fmt: num }, { t: 'Mean GB/s', num: 1, fmt: (v) => fixed(v, 3) }], tracks, {})],
    ];
    const body = el('div');
    const bar = el('div', { class: 'tabs' });
    const show = (k) => { [...bar.children].forEach((b, j) => b.classList.toggle('on', j === k)); body.textContent = ''; body.appendChild(tabs[k][1]()); };
    tabs.forEach(([t], k) => bar.appendChild(el('button', { onclick: () => show(k) }, t)));
    show(0);
    return section('tables', 'Tables (click a header to sort, a row to show it on the timeline)', bar, body);
  }

  // Index of the event of lane `li` with cmd id `cmd` (and begin near `begin`), or -1.
  function findEvent(li, cmd, begin) {
    const L = lanes[li];
    const start = begin === undefined ? 0 : Math.max(0, upperBound(L.b, L.n, begin) - 64);
    for (let i = start; i < L.n; i++) {
      if (begin !== undefined && L.b[i] > begin + 1e-6) break;
      if (colv(L, 'id', i) === cmd && (begin === undefined || Math.abs(L.b[i] - begin) < 1e-3)) return i;
    }
    if (begin !== undefined) return findEvent(li, cmd);
    return -1;
  }

  // ---------- build ----------
  const t_decode = performance.now();
  decodeAll();
  const t_mem = performance.now();
  decodeMem();
  const memDecodeMs = performance.now() - t_mem;
  const decodeMs = performance.now() - t_decode;
  app.append(
    el('header', { class: 'top' }, el('h1', null, meta.title), el('span', { class: 'sub' }, info.source),
      el('nav', null, el('a', { href: '#overview' }, 'Overview'), el('a', { href: '#timeline-section' }, 'Timeline'),
        mem.panels.length ? el('a', { href: '#memory-section' }, 'Memory') : null,
        el('a', { href: '#tables' }, 'Tables'), el('a', { href: '#diagnostics' }, 'Diagnostics'))),
    overview(), ...timeline(), memorySection(), tables(), diagnostics(),
    el('footer', null, meta.generator + ' \u00b7 ' + num(info.events) + ' events decoded in ' + decodeMs.toFixed(0) + ' ms \u00b7 self-contained, works offline'));
  const critSection = critPathSection();  // before the tables, when the report has dependency data
  if (critSection) {
    document.getElementById('tables').before(critSection);
    app.querySelector('nav').append(el('a', { href: '#critical-path' }, 'Critical path'));
  }
  layoutCanvas();
  drawNow();

  // ---------- test hook ----------
  Object.assign(api, {
    meta, lanes, view, decodeMs, memDecodeMs,
    drawMs: () => tl.drawMs,
    setView: (t0, t1) => { setView(t0, t1); drawNow(); },
    findEvent,
    fields: (li, i) => eventFields(lanes[li], i),
    // Zooms onto event i of lane li and returns the client point of its centre.
    focus: (li, i) => {
      const L = lanes[li];
      zoomTo(L.b[i], L.e[i], 1);
      drawNow();
      tl.canvas.scrollIntoView({ block: 'center' });
      const r = tl.canvas.getBoundingClientRect();
      const s = (r.width - GUTTER) / (view.t1 - view.t0);
      const x = r.left + GUTTER + ((L.b[i] + L.e[i]) / 2 - view.t0) * s;
      const y = r.top + tl.laneY[li] + L.depth[i] * ROW + ROW / 2;
      return { x, y };
    },
    tooltip: () => (tip.style.display === 'none' ? null : Object.fromEntries([...tip.querySelectorAll('tr')].map((r) => [r.cells[0].textContent, r.cells[1].textContent]))),
    // Memory charts: panels, the operand of lane li's event (cmd id, begin) at
    // an address, zooming onto it and returning the client point to hover.
    memPanels: () => mem.panels.map((Q) => ({ name: Q.name, n: Q.n, bands: Q.bands.length, mode: Q.mode, drawMs: Q.drawMs })),
    memFocus: (pi, li, cmd, begin, addr) => {
      const Q = mem.panels[pi];
      if (!Q) return { error: 'no memory panel ' + pi };
      const k = findEvent(li, cmd, begin);
      if (k < 0) return { error: 'no event with cmd id ' + cmd };
      let i = -1;
      for (let j = 0; j < Q.n; j++) if (Q.lane[j] === li && Q.ev[j] === k && Q.addr[j] === addr) { i = j; break; }
      if (i < 0) return { error: 'no operand at ' + hex(addr) + ' of that event' };
      zoomTo(Q.b[i], Q.e[i], 1);
      drawNow();
      Q.canvas.scrollIntoView({ block: 'center' });
      const r = Q.canvas.getBoundingClientRect(), s = (r.width - GUTTER) / (view.t1 - view.t0);
      return { x: r.left + GUTTER + ((Q.b[i] + Q.e[i]) / 2 - view.t0) * s, y: r.top + AXIS + (Q.y0[i] + Q.y1[i]) / 2, i };
    },
    // Non-background pixels of a memory chart's plot area.
    memInked: (pi) => {
      const Q = mem.panels[pi], x0 = Math.round(GUTTER * tl.dpr), y0 = Math.round(AXIS * tl.dpr);
      const img = Q.ctx.getImageData(x0, y0, Q.canvas.width - x0, Q.canvas.height - y0).data;
      let n = 0;
      for (let p = 0; p < img.length; p += 4) {
        const r = img[p], g = img[p + 1], b = img[p + 2];
        if (!((r === 255 && g === 255 && b === 255) || (r === 250 && g === 251 && b === 252) || (r === 236 && g === 239 && b === 243) || (r === 228 && g === 231 && b === 236))) n++;
      }
      return n;
    },
    tooltipTitle: () => (tip.querySelector('.t') || {}).textContent || null,
    // Non-background pixels of the timeline plot area (excludes axis and labels).
    inkedPixels: () => {
      const c = tl.canvas, ctx = tl.ctx;
      const x0 = Math.round(GUTTER * tl.dpr), y0 = Math.round(AXIS * tl.dpr);
      const img = ctx.getImageData(x0, y0, c.width - x0, c.height - y0).data;
      let n = 0;
      for (let p = 0; p < img.length; p += 4) {
        const r = img[p], g = img[p + 1], b = img[p + 2];
        if (!((r === 255 && g === 255 && b === 255) || (r === 250 && g === 251 && b === 252) || (r === 236 && g === 239 && b === 243))) n++;
      }
      return n;
    },
  });
  api.ready = true;
})();

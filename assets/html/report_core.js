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


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
    if (findingOn !== null) drawFinding(t0, s, plotW);
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


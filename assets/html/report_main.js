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
      el('nav', null, meta.findings ? el('a', { href: '#findings' }, 'Findings') : null,
        el('a', { href: '#overview' }, 'Overview'), el('a', { href: '#timeline-section' }, 'Timeline'),
        mem.panels.length ? el('a', { href: '#memory-section' }, 'Memory') : null,
        el('a', { href: '#tables' }, 'Tables'), el('a', { href: '#diagnostics' }, 'Diagnostics'))),
    ...[findingsSection()].filter(Boolean), overview(), ...timeline(), memorySection(), tables(), diagnostics(),
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
    // Findings: outlines finding k (null: none) and returns the view and its commands shown.
    finding: () => ({ k: findingOn, points: findingOn === null ? [] : findingPoints(findingOn), extent: findingOn === null ? null : findingExtent(findingOn) }),
    showFinding: (k) => { showFinding(k); drawNow(); return { t0: view.t0, t1: view.t1, points: k === null ? [] : findingPoints(k), extent: k === null ? null : findingExtent(k) }; },
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

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


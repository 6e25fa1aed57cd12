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


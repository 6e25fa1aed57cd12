  // ---------- findings (meta.findings: `tpuprof advise`, docs/analysis.md) ----------
  let findingOn = null;  // index of the finding outlined on the timeline, or null
  const SEV_CLASS = { error: 'bad', warn: 'warn', info: 'muted' };
  // [lane, index] of finding k's commands that the page shows.
  function findingPoints(k) {
    const at = meta.findings.at[k] || [], pts = [];
    for (let j = 0; j + 1 < at.length; j += 2) if (lanes[at[j]] && at[j + 1] < lanes[at[j]].n) pts.push([at[j], at[j + 1]]);
    return pts;
  }
  // Time extent of finding k's commands on the timeline, or null.
  function findingExtent(k) {
    let b = Infinity, e = -Infinity;
    for (const [li, i] of findingPoints(k)) { b = Math.min(b, lanes[li].b[i]); e = Math.max(e, lanes[li].e[i]); }
    return b <= e ? [b, e] : null;
  }
  // Shades finding k's extent and outlines its commands.
  function drawFinding(t0, s, plotW) {
    const ctx = tl.ctx, x = findingExtent(findingOn);
    if (!x) return;
    ctx.save();
    ctx.beginPath(); ctx.rect(GUTTER, AXIS, plotW, tl.H); ctx.clip();
    ctx.fillStyle = 'rgba(247, 144, 9, 0.10)';
    const a = GUTTER + (x[0] - t0) * s;
    ctx.fillRect(a, AXIS, Math.max(2, (x[1] - x[0]) * s), tl.H - AXIS);
    ctx.strokeStyle = '#dc6803'; ctx.lineWidth = 2;
    for (const [li, i] of findingPoints(findingOn)) {
      const L = lanes[li], x0 = GUTTER + (L.b[i] - t0) * s, x1 = GUTTER + (L.e[i] - t0) * s;
      if (x1 < GUTTER - 2 || x0 > GUTTER + plotW + 2) continue;
      ctx.strokeRect(x0 - 1, tl.laneY[li] + L.depth[i] * ROW, Math.max(2, x1 - x0 + 2), ROW);
    }
    ctx.restore();
  }
  // Outlines finding k (null: none) and zooms the timeline onto its commands.
  function showFinding(k) {
    findingOn = k;
    document.querySelectorAll('#findings tr.finding').forEach((r) => r.classList.toggle('on', Number(r.dataset.k) === k));
    const x = k === null ? null : findingExtent(k);
    // A 10% margin each side, less when that would be wider than the run (setView clamps).
    const room = x ? ((info.end_ns - info.begin_ns) * 1.02 / Math.max(x[1] - x[0], 1) - 1) / 2 : 0;
    if (x) zoomTo(x[0], x[1], Math.max(0, Math.min(0.1, room))); else redraw();
    if (k !== null) scrollToTimeline();
  }
  function findingsSection() {
    const F = meta.findings;
    if (!F) return null;
    const share = (v) => (F.span_ns > 0 ? (100 * v / F.span_ns).toFixed(1) + '%' : '');
    const kids = [];
    if (!F.data)
      kids.push(el('p', { class: 'warn' }, F.list.length
        ? 'No dependency data in this dump (SG2260 modes 0/1 record no command dependencies): what each command waited for is unknown, so no finding rests on it and the bound classes are unknown; the findings below use what the dump has (engine order, sizes, rates).'
        : 'Findings unavailable: this dump has no dependency data (SG2260 modes 0/1 record no command dependencies), so the advisor cannot tell what each engine waited for, and nothing else it can see stands out. Nothing is guessed; a mode-2 capture has the dependencies.'));
    else if (!F.list.length)
      kids.push(el('p', { class: 'good' }, 'No findings: no rule recovers 0.1% of the span or more.'));
    if (F.list.length) {
      const total = F.list.reduce((t, f) => t + f.recoverable_ns, 0);
      kids.push(el('p', null, F.list.length + ' finding(s), most recoverable first; fixing all recovers ' + dur(total) + ' (' + share(total) +
        ' of the ' + dur(F.span_ns) + ' span). Click a finding to show its commands on the timeline.'));
      const rows = F.list.map((f, k) => {
        const cut = f.message.indexOf(' Try: ');
        const why = cut < 0 ? f.message : f.message.slice(0, cut), tryIt = cut < 0 ? '' : f.message.slice(cut + 6);
        const layers = f.layers.length ? f.layers.join(', ') : '';
        return el('tr', { class: 'finding click', 'data-k': k, onclick: () => showFinding(findingOn === k ? null : k) },
          el('td', null, f.id), el('td', { class: 'l ' + (SEV_CLASS[f.severity] || '') }, f.severity), el('td', { class: 'l' }, f.rule),
          el('td', null, dur(f.recoverable_ns)), el('td', null, share(f.recoverable_ns)),
          el('td', { class: 'l' }, layers), el('td', null, String(f.commands.length)),
          el('td', { class: 'l msg' }, why), el('td', { class: 'l msg' }, tryIt));
      });
      const head = ['id', 'severity', 'rule', 'recoverable', 'of span', 'layers', 'commands', 'what it found', 'what to try']
        .map((h, c) => el('th', { class: [1, 2, 5, 7, 8].includes(c) ? 'l' : '' }, h));
      kids.push(el('div', { class: 'tablewrap' }, el('table', { class: 'findings' }, el('thead', null, el('tr', null, head)), el('tbody', null, rows))));
    }
    return section('findings', 'Findings (tpuprof advise)', ...kids);
  }


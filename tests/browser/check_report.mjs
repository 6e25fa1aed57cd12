#!/usr/bin/env node
// Opens an HTML report in headless Chromium (DevTools protocol over
// --remote-debugging-pipe: no npm packages, no browser download) and checks it:
// no console errors or exceptions, the timeline canvas is drawn, the tooltip of
// a known event shows the expected fields. Saves a screenshot.
//
// node check_report.mjs --html report.html --screenshot out.png
//      [--expect expect.json] [--chromium /usr/bin/chromium] [--timeout 60000]
// expect.json: {"lane": {"eng": "TIU", "unit": 0, "dev": 0}, "cmd_id": 12,
//               "begin_ns": 123.0, "fields": {"op": "arith.cast", ...},
//               "min_events": 200, "max_draw_ms": 1500,
//               "mem_panels": {"LOCAL MEM": 403, "GLOBAL MEM": 176},
//               "mem": [{"panel": 0, "lane": {...}, "cmd_id": 3, "begin_ns": 1.0,
//                        "address": 4096, "fields": {"address": "0x1000", ...}}]}
// mem_panels: the memory charts expected (operand counts; each must be drawn);
// mem: operands whose tooltip is checked after hovering them.
// findings: {"count": 7, "rules": ["lane-underuse", ...], "click": 0, "text": "..."}: the
// Findings section lists these (in order) and contains `text`; clicking finding `click`'s row zooms the timeline onto its
// commands and outlines them.
// Prints one JSON line with the results; exit 0 when every check passed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.html) { console.error('usage: check_report.mjs --html FILE [--screenshot PNG] [--expect JSON]'); process.exit(2); }
const chromium = args.chromium || process.env.TPUPROF_CHROMIUM || '/usr/bin/chromium';
const timeoutMs = Number(args.timeout || 90000);
const expect = args.expect ? JSON.parse(fs.readFileSync(args.expect, 'utf8')) : {};

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tpuprof-chromium-'));
const proc = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions',
  '--hide-scrollbars', '--mute-audio', `--user-data-dir=${profile}`, '--remote-debugging-pipe',
  '--window-size=1400,1000', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
proc.stderr.on('data', (d) => { stderr += d; });

const failures = [];
const result = { html: args.html, failures };
function done(code) {
  result.ok = failures.length === 0 && code === 0;
  console.log(JSON.stringify(result));
  try { proc.kill('SIGKILL'); } catch (e) { /* already gone */ }
  try { fs.rmSync(profile, { recursive: true, force: true }); } catch (e) { /* best effort */ }
  process.exit(result.ok ? 0 : 1);
}
const timer = setTimeout(() => { failures.push(`timeout after ${timeoutMs} ms`); done(1); }, timeoutMs);
proc.on('error', (e) => { failures.push(`cannot start ${chromium}: ${e.message}`); done(1); });
proc.on('exit', (c) => { if (!result.ok) { failures.push(`chromium exited (${c}): ${stderr.slice(-500)}`); done(1); } });

// --- CDP over the pipe: NUL-separated JSON messages on fds 3 (in) and 4 (out).
const toBrowser = proc.stdio[3], fromBrowser = proc.stdio[4];
let nextId = 1, pending = new Map(), listeners = [], inbuf = '';
fromBrowser.on('data', (chunk) => {
  inbuf += chunk.toString('utf8');
  let k;
  while ((k = inbuf.indexOf('\0')) >= 0) {
    const msg = JSON.parse(inbuf.slice(0, k));
    inbuf = inbuf.slice(k + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(msg.error.message)); else resolve(msg.result);
    } else if (msg.method) {
      for (const l of listeners) l(msg);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  toBrowser.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const s = (m, p) => send(m, p, sessionId);
  const consoleErrors = [];
  let loaded = false;
  listeners.push((msg) => {
    if (msg.sessionId !== sessionId) return;
    if (msg.method === 'Runtime.consoleAPICalled' && (msg.params.type === 'error' || msg.params.type === 'assert'))
      consoleErrors.push('console.' + msg.params.type + ': ' + msg.params.args.map((a) => a.value ?? a.description).join(' '));
    if (msg.method === 'Runtime.exceptionThrown')
      consoleErrors.push('exception: ' + (msg.params.exceptionDetails.exception?.description || msg.params.exceptionDetails.text));
    if (msg.method === 'Log.entryAdded' && msg.params.entry.level === 'error')
      consoleErrors.push('log: ' + msg.params.entry.text + (msg.params.entry.url ? ' (' + msg.params.entry.url + ')' : ''));
    if (msg.method === 'Page.loadEventFired') loaded = true;
  });
  await s('Runtime.enable');
  await s('Log.enable');
  await s('Page.enable');
  await s('Network.enable');
  const requests = [];
  listeners.push((msg) => {
    if (msg.sessionId === sessionId && msg.method === 'Network.requestWillBeSent') {
      const u = msg.params.request.url;
      if (!u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('about:')) requests.push(u);
    }
  });
  await s('Emulation.setDeviceMetricsOverride', { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });
  const t0 = Date.now();
  await s('Page.navigate', { url: pathToFileURL(path.resolve(args.html)).href });
  const evalJs = async (expr) => {
    const r = await s('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error('evaluate failed: ' + (r.exceptionDetails.exception?.description || r.exceptionDetails.text));
    return r.result.value;
  };
  for (;;) {
    if (loaded) {
      const st = await evalJs('window.tpuprof ? {ready: window.tpuprof.ready, errors: window.tpuprof.errors} : null');
      if (st && (st.ready || st.errors.length)) break;
    }
    await sleep(50);
  }
  result.load_ms = Date.now() - t0;
  const st = await evalJs(`(() => { const t = window.tpuprof; return { ready: t.ready, errors: t.errors,
      lanes: t.lanes ? t.lanes.length : 0, events: t.meta ? t.meta.info.events : 0, decode_ms: t.decodeMs,
      draw_ms: t.ready ? t.drawMs() : null, inked: t.ready ? t.inkedPixels() : 0 }; })()`);
  Object.assign(result, st);
  if (!st.ready) failures.push('report did not finish building: ' + st.errors.join('; '));
  if (!(st.inked > 1000)) failures.push(`timeline canvas looks blank (${st.inked} inked pixels)`);
  if (expect.min_events !== undefined && st.events < expect.min_events) failures.push(`only ${st.events} events`);

  // Redraw cost of the whole run (the worst case: every event visible).
  if (st.ready) {
    result.full_draw_ms = await evalJs(`(() => { const t = window.tpuprof, v = t.meta.info; let m = 0;
        for (let k = 0; k < 3; k++) { t.setView(v.begin_ns, v.end_ns); m = Math.max(m, t.drawMs()); } return m; })()`);
    if (expect.max_draw_ms && result.full_draw_ms > expect.max_draw_ms)
      failures.push(`a full redraw took ${result.full_draw_ms.toFixed(0)} ms (limit ${expect.max_draw_ms})`);
  }

  // Memory charts: the panels expected, with their operand counts, drawn (at full view).
  if (st.ready && expect.mem_panels) {
    const panels = await evalJs(`(() => { const t = window.tpuprof, v = t.meta.info; t.setView(v.begin_ns, v.end_ns);
        return t.memPanels().map((p, i) => Object.assign(p, { inked: t.memInked(i) })); })()`);
    result.mem_panels = panels;
    result.mem_decode_ms = await evalJs('window.tpuprof.memDecodeMs');
    const worst = Math.max(0, ...panels.map((p) => p.drawMs));
    if (expect.max_draw_ms && worst > expect.max_draw_ms)
      failures.push(`a full redraw of a memory chart took ${worst.toFixed(0)} ms (limit ${expect.max_draw_ms})`);
    for (const [name, n] of Object.entries(expect.mem_panels)) {
      const p = panels.find((x) => x.name === name);
      if (!p) failures.push(`no memory chart "${name}"`);
      else {
        if (p.n !== n) failures.push(`memory chart "${name}" has ${p.n} operands, expected ${n}`);
        if (!(p.inked > 100)) failures.push(`memory chart "${name}" looks blank (${p.inked} inked pixels)`);
      }
    }
    if (panels.length !== Object.keys(expect.mem_panels).length) failures.push(`${panels.length} memory charts`);
  }
  // Findings: the rows listed, then a real click on one of them.
  if (st.ready && expect.findings) {
    const F = expect.findings;
    const rows = await evalJs(`[...document.querySelectorAll('#findings tr.finding')].map((r) => r.cells[2].textContent)`);
    result.findings = rows;
    if (rows.length !== F.count) failures.push(`${rows.length} findings listed, expected ${F.count}`);
    if (F.rules && JSON.stringify(rows) !== JSON.stringify(F.rules)) failures.push(`findings ${JSON.stringify(rows)}, expected ${JSON.stringify(F.rules)}`);
    if (F.text) {
      const text = await evalJs('(document.querySelector("#findings") || {}).textContent || ""');
      if (!text.includes(F.text)) failures.push(`the Findings section does not say "${F.text}": ${text.slice(0, 300)}`);
    }
    const top = await evalJs('document.querySelector("#findings") === document.querySelector("#app > section")');
    if (!top) failures.push('the Findings section is not the first section');
    if (F.click !== undefined) {
      const loc = await evalJs(`(() => { const r = document.querySelectorAll('#findings tr.finding')[${Number(F.click)}];
          r.scrollIntoView({ block: 'center' }); const b = r.cells[0].getBoundingClientRect();
          return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; })()`);
      for (const type of ['mousePressed', 'mouseReleased'])
        await s('Input.dispatchMouseEvent', { type, x: loc.x, y: loc.y, button: 'left', clickCount: 1 });
      await sleep(300);
      const v = await evalJs(`(() => { const t = window.tpuprof, f = t.finding();
          const c = document.getElementById('timeline'), img = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let n = 0; for (let p = 0; p < img.length; p += 4) if (img[p] === 220 && img[p + 1] === 104 && img[p + 2] === 3) n++;
          return { finding: f.k, points: f.points.length, extent: f.extent, t0: t.view.t0, t1: t.view.t1, outlined: n,
            selected: document.querySelectorAll('#findings tr.finding.on').length }; })()`);
      result.finding_click = v;
      if (v.finding !== F.click) failures.push(`clicking finding ${F.click} outlines ${v.finding}`);
      if (!v.extent || v.t0 > v.extent[0] || v.t1 < v.extent[1]) failures.push('the view does not show the finding\'s commands: ' + JSON.stringify(v));
      else if (v.t1 - v.t0 > Math.max(1.5 * (v.extent[1] - v.extent[0]), 10)) failures.push('the view is not zoomed onto the finding: ' + JSON.stringify(v));
      if (!(v.outlined > 20)) failures.push(`the finding's commands are not outlined (${v.outlined} pixels)`);
      if (v.selected !== 1) failures.push(`${v.selected} finding rows marked`);
    }
  }
  async function hoverCheck(loc, fields, what) {
    await sleep(100);
    await s('Input.dispatchMouseEvent', { type: 'mouseMoved', x: loc.x, y: loc.y });
    await sleep(100);
    const tipv = await evalJs('({ title: window.tpuprof.tooltipTitle(), fields: window.tpuprof.tooltip() })');
    if (!tipv.fields) { failures.push(`no tooltip after hovering ${what} at ` + JSON.stringify(loc)); return tipv; }
    for (const [k, v] of Object.entries(fields || {})) {
      const got = tipv.fields[k];
      if (got === undefined) failures.push(`${what} tooltip has no "${k}" (has ${Object.keys(tipv.fields).join(', ')})`);
      else if (!got.startsWith(String(v))) failures.push(`${what} tooltip "${k}" is "${got}", expected it to start with "${v}"`);
    }
    return tipv;
  }
  result.mem_tooltips = [];
  for (const m of (st.ready && expect.mem) || []) {
    const loc = await evalJs(`(() => { const t = window.tpuprof, want = ${JSON.stringify(m.lane)};
        const li = t.lanes.findIndex((L) => L.eng === want.eng && L.unit === want.unit && L.dev === (want.dev || 0));
        if (li < 0) return { error: 'no lane ' + JSON.stringify(want) };
        return t.memFocus(${Number(m.panel)}, li, ${Number(m.cmd_id)}, ${Number(m.begin_ns)}, ${Number(m.address)}); })()`);
    if (loc.error) { failures.push('memory operand: ' + loc.error); continue; }
    result.mem_tooltips.push(await hoverCheck(loc, m.fields, 'memory operand'));
  }

  // Tooltip of a known event: hover its centre with a real mouse event.
  if (st.ready && expect.lane) {
    const lane = JSON.stringify(expect.lane);
    const loc = await evalJs(`(() => { const t = window.tpuprof, want = ${lane};
        const li = t.lanes.findIndex((L) => L.eng === want.eng && L.unit === want.unit && L.dev === (want.dev || 0));
        if (li < 0) return { error: 'no lane ' + JSON.stringify(want) };
        const i = t.findEvent(li, ${Number(expect.cmd_id)}, ${expect.begin_ns === undefined ? 'undefined' : Number(expect.begin_ns)});
        if (i < 0) return { error: 'no event with cmd id ${Number(expect.cmd_id)}' };
        return Object.assign(t.focus(li, i), { li, i }); })()`);
    if (loc.error) failures.push(loc.error);
    else {
      await sleep(100);
      await s('Input.dispatchMouseEvent', { type: 'mouseMoved', x: loc.x, y: loc.y });
      await sleep(100);
      const tipv = await evalJs('({ title: window.tpuprof.tooltipTitle(), fields: window.tpuprof.tooltip() })');
      result.tooltip = tipv;
      if (!tipv.fields) failures.push('no tooltip after hovering the event at ' + JSON.stringify(loc));
      else {
        for (const [k, v] of Object.entries(expect.fields || {})) {
          const got = tipv.fields[k];
          if (got === undefined) failures.push(`tooltip has no "${k}" (has ${Object.keys(tipv.fields).join(', ')})`);
          else if (!got.startsWith(String(v))) failures.push(`tooltip "${k}" is "${got}", expected it to start with "${v}"`);
        }
      }
    }
  }
  if (args.screenshot) {
    await evalJs('window.scrollTo(0, 0), window.tpuprof.ready && window.tpuprof.setView(window.tpuprof.meta.info.begin_ns, window.tpuprof.meta.info.end_ns), 0');
    // The whole page: grow the viewport to the content height first.
    const m = await s('Page.getLayoutMetrics');
    const height = Math.min(6000, Math.ceil(m.cssContentSize.height));
    await s('Emulation.setDeviceMetricsOverride', { width: 1400, height, deviceScaleFactor: 1, mobile: false });
    await evalJs('window.dispatchEvent(new Event("resize")), 0');
    await sleep(200);
    const shot = await s('Page.captureScreenshot', { format: 'png' });
    fs.writeFileSync(args.screenshot, Buffer.from(shot.data, 'base64'));
    result.screenshot = args.screenshot;
  }
  await sleep(50);
  result.console_errors = consoleErrors;
  result.network_requests = requests;
  for (const e of consoleErrors) failures.push(e);
  for (const u of requests) failures.push('network request: ' + u);
  clearTimeout(timer);
  done(0);
}
main().catch((e) => { failures.push(String(e && e.stack || e)); done(1); });

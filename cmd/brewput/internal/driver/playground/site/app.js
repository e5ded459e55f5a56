// The playground's page: the controls make a brewput model command line,
// the engine (engine.js, in workers) runs it, and everything shown comes
// from the JSON it prints. The state lives in the URL's fragment, with the
// CLI's flag names, so that a link opens one exact experiment.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  // The shop's families, and its usual modes (coffee's declarations).
  const SHOP = JSON.parse($("modes").textContent);
  const MODES = SHOP.families;
  const CALIBRATION = $("calibration").textContent;
  const CAL_PATH = "/calibration.json";
  const YAML_PATH = "/model.yaml";
  // The report's palette (report/palette): a usual mode's colour is its
  // own on every link and on both pages.
  const PALETTE = JSON.parse($("palette").textContent);
  // The talk's eight modes, in the order its last charts draw them; the
  // others the page offers after them.
  const TALK = SHOP.talk;
  const OFFERED = SHOP.offered;
  const STEPS = ["grind", "press", "steam", "latte", "jitter"];
  // A step's flag, where it is not named as in links: links keep "latte",
  // which the command line reads as --combine's older name.
  const flag = (s) => "--" + (s === "latte" ? "combine" : s);
  // The URL's keys, the CLI's flags where there is one. Defaults are left
  // out of the command line, and out of the URL but for ALWAYS.
  // With no state the page opens on the talk: its eight modes, finelocking
  // chosen, on 6 CPUs, under the fifo policy its story assumes.
  const DEFAULTS = { mode: "finelocking", cpus: "6", sched: "fifo", dur: "", par: "", rate: "", compare: TALK.filter((m) => m !== "finelocking").join(","), model: "", grind: "", press: "", steam: "", latte: "", jitter: "" };

  // ---- state ⇄ URL ----
  // A link always names the experiment's mode, CPUs and policy, so that it
  // means the same if a later page changes its defaults.
  const ALWAYS = ["mode", "cpus", "sched"];
  function readHash() {
    const st = { ...DEFAULTS };
    const h = new URLSearchParams(location.hash.replace(/^#/, ""));
    for (const k of Object.keys(DEFAULTS)) if (h.has(k)) st[k] = h.get(k);
    if (h.has("modes") && !h.has("mode")) st.mode = h.get("modes"); // as the CLI spells it
    return st;
  }
  function writeHash(st) {
    const h = new URLSearchParams();
    for (const [k, v] of Object.entries(st)) if (v !== DEFAULTS[k] || ALWAYS.includes(k)) h.set(k, v);
    const s = h.toString().replace(/%2C/g, ",");
    history.replaceState(null, "", s ? "#" + s : location.pathname);
    $("link").href = location.href;
  }
  const yamlOf = (st) => (st.model ? decodeURIComponent(escape(atob(st.model.replace(/-/g, "+").replace(/_/g, "/")))) : "");
  const encodeYAML = (text) => btoa(unescape(encodeURIComponent(text))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

  // ---- the command line ----
  // args is brewput model's command line for st: modes and cpus as given,
  // extra flags after.
  function args(st, modes, cpus, extra) {
    const a = ["model"];
    if (st.model) a.push("--model", YAML_PATH);
    else a.push("--modes", modes);
    a.push("--cpus", cpus);
    if (st.sched !== "go") a.push("--sched", st.sched);
    if (st.dur) a.push("--dur", st.dur);
    if (!st.model) {
      if (st.rate) a.push("--rate", st.rate);
      else if (st.par) a.push("--par", st.par);
      for (const s of STEPS) if (st[s] !== "") a.push(flag(s), st[s] + "ms");
    }
    if (st.sched === "go") a.push("--calibration", CAL_PATH);
    return a.concat(extra || [], ["--format", "json"]);
  }
  const files = (st) => {
    const f = { [CAL_PATH]: CALIBRATION };
    if (st.model) f[YAML_PATH] = yamlOf(st);
    return f;
  };
  const shell = (a) => "brewput " + a.map((x) => (/^[\w.,:\/=-]+$/.test(x) ? x : "'" + x + "'")).join(" ").replace(CAL_PATH, "calibration.json").replace(YAML_PATH, "model.yaml");

  // ---- the engine: a worker per lane; a newer request in a lane ends
  // the older one by ending its worker ----
  let wasmModule = null;
  const lanes = {};
  let seq = 0;
  function newWorker() {
    const src = globalThis.brewputEngine.worker;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
    const ready = new Promise((resolve, reject) => {
      w.onmessage = (ev) => (ev.data.type === "ready" ? resolve() : null);
      w.onerror = (e) => reject(new Error(e.message));
    });
    w.postMessage({ type: "init", module: wasmModule });
    return { w, ready, busy: null };
  }
  // stop ends what the lane's worker is running, and the worker with it.
  function stop(l) {
    if (!l.busy) return;
    l.w.terminate();
    l.busy.reject(new Superseded());
    l.dead = true;
  }
  function run(lane, a, fs) {
    let l = lanes[lane];
    if (l) stop(l);
    if (!l || l.dead) l = lanes[lane] = newWorker();
    const id = ++seq;
    return new Promise((resolve, reject) => {
      l.busy = { resolve, reject };
      l.ready.then(() => {
        l.w.onmessage = (ev) => {
          if (ev.data.type !== "done" || ev.data.id !== id) return;
          l.busy = null;
          resolve(ev.data);
        };
        l.w.postMessage({ type: "run", id, args: a, files: fs });
      }, reject);
    });
  }
  class Superseded extends Error {}
  // The points with the words report/text says of them (the engine's said).
  const points = (out) => (out.said || out.stdout).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((p) => !("brewput" in p)); // less the schema's line

  // ---- words and numbers ----
  // limitWords names what limits a point as every other surface does, in
  // the words Go's report/text says (bottleneck.said, added by the
  // playground's engine): what its causal profile named, "together" after
  // it where it names more than one.
  function limitWords(bn) {
    if (bn && bn.said) return bn.said.limit;
    if (!bn || !bn.resource || bn.resource === "unknown") return "no causal profile";
    if (bn.resource === "none") return "nothing tried";
    const rs = bn.resources && bn.resources.length ? bn.resources : [bn.resource];
    return (bn.named || rs.join(", ")) + (rs.length > 1 ? " together" : "");
  }
  const num = (x) => (x >= 100 ? Math.round(x).toLocaleString("en") : x >= 10 ? x.toFixed(1) : x.toPrecision(3));
  // An upper bound rounded up at the precision num shows, as Go's
  // format.AtMost: rounded to the nearest, 333.3 a second would show 333
  // beside a window's count of 334 that meets it.
  const numAtMost = (x) => {
    if (!(x > 0)) return num(x);
    const d = x >= 100 ? 0 : x >= 10 ? 1 : Math.max(0, 2 - Math.floor(Math.log10(x)));
    return num(Math.ceil(x * 10 ** d * (1 - 1e-12)) / 10 ** d);
  };
  const ms = (x) => (x >= 1 ? num(x) + " ms" : x * 1000 >= 1 ? num(x * 1000) + " µs" : num(x * 1e6) + " ns");
  const pct = (x) => (x >= 0 ? "+" : "−") + Math.abs(100 * x).toFixed(1) + " %";
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  // colours gives each of names its colour as Go's palette.Modes does: a
  // usual mode its fixed one, any other the cycle's first still free.
  function colours(names) {
    const out = {}, used = [];
    for (const m of names) if (PALETTE.fixed[m]) { out[m] = PALETTE.fixed[m]; used.push(out[m]); }
    let n = 0;
    for (const m of names) {
      if (out[m]) continue;
      const free = PALETTE.cycle.find((c) => !used.includes(c));
      out[m] = free || PALETTE.cycle[n++ % PALETTE.cycle.length];
      if (free) used.push(free);
    }
    return out;
  }
  const racy = (mode) => MODES.some((m) => m.races && (mode === m.name || mode.startsWith(m.name + "-")));
  const unit = (p) => p.unit || "ops/s";

  // ---- the answer at the chosen point ----
  function showPoint(p, st, band) {
    const u = unit(p);
    let head = `${p.mode} on ${p.cpus} CPU${p.cpus > 1 ? "s" : ""}: ${num(p.throughput)} ${u}, median latency ${ms(p.latency_ms.p50)}`;
    if (band && p.band && num(p.band.throughput[0]) !== num(p.band.throughput[1])) head += ` (range ${num(p.band.throughput[0])}–${num(p.band.throughput[1])})`;
    $("headline").textContent = head;
    // Whose costs the numbers rest on, said where the numbers are.
    $("policy").textContent = st.sched === "go"
      ? `Under the go policy ${$("calname").textContent}: the numbers rest on those measured costs, not on the fifo policy's idealized CPUs.`
      : "Under the fifo policy: idealized CPUs and no runtime costs, the talk's story, exact.";
    let why = p.bottleneck && p.bottleneck.said ? p.bottleneck.said.text : "";
    // Under the go policy the answer names whose costs it rests on and how
    // far to trust them, as Go's report/text.CalibrationFor says it.
    if (st.sched === "go") why = `Under the go policy ${$("calname").textContent}: ` + why;
    if (racy(p.mode)) why = `${p.mode} has a data race (no synchronization at all): it is the limit of the CPUs, a reference, not a valid design. ` + why;
    // The ceiling alone: what limits the point is named once, above, and
    // what sets the ceiling would read as a second name for it.
    if (p.bounds) why += ` Its ceiling: at most ${numAtMost(p.bounds.throughput_max)} ${u}, at least ${ms(p.bounds.latency_min_ms)} a drink.`;
    // Every number past a bound comes with its reason, as the CLI's row says it.
    for (const a of (p.trust && p.trust.above) || []) if (a.said) why += ` ${a.said[0].toUpperCase()}${a.said.slice(1)}.`;
    if (p.notes && p.notes.length) why += " " + p.notes.join(" ");
    // Where the middle half of the latencies spans more than twice its low
    // end (locking on 2 CPUs under the go policy: two humps), the median
    // alone misleads: said, with the spread the boxes draw.
    const l = p.latency_ms;
    if (l && l.p25 > 0 && l.p75 > 2 * l.p25) why += ` Its latencies spread wide: the middle half of the ${u.replace(/\/s$/, "")} took ${ms(l.p25)} to ${ms(l.p75)}, so the median (${ms(l.p50)}) alone says little; the boxes show the spread.`;
    $("because").textContent = why;
    // The tables' columns in the system's own unit: loaves/s, not lattes/s.
    for (const th of document.querySelectorAll("#profile th:nth-child(2), #limits th:nth-child(2)")) th.textContent = u;
    // The changes that matter (1 % or more either way, in throughput or
    // the median) in the table; the rest folded below it.
    const rows = (p.bottleneck && p.bottleneck.profile) || [];
    const matters = (r) => Math.abs(r.gain) >= 0.01 || Math.abs(r.p50_change || 0) >= 0.01;
    const row = (r) => `<td>${esc(r.said || r.change)}</td><td class="num">${num(r.throughput)}</td><td class="num">${pct(r.gain)}</td><td class="num">${ms(r.p50_ms)}${r.window_s ? ` <span class="muted">(over ${r.window_s} s)</span>` : ""}</td>`;
    const big = rows.filter(matters), small = rows.filter((r) => !matters(r));
    $("profile").tBodies[0].innerHTML = big.map((r) => `<tr>${row(r)}</tr>`).join("");
    $("profile").style.display = big.length ? "" : "none";
    $("profilesmall").tBodies[0].innerHTML = small.map((r) => `<tr>${row(r)}</tr>`).join("");
    $("profilerest").style.display = small.length ? "" : "none";
    $("profilerest").querySelector("summary").textContent = `${small.length} ${small.length === 1 ? "change" : "changes"} that moved throughput and the median less than 1 %`;
    $("profilenote").textContent = rows.length && !big.length ? "None moved throughput or the median by 1 % or more." : "";
  }

  // ---- charts ----
  // yTicks are the value axis's ticks from 0 to at least top, a nice step
  // apart, each written at the step's precision: "0", "250", "0.5".
  function yTicks(top) {
    const raw = (top > 0 ? top : 1) / 4, k = Math.floor(Math.log10(raw)), e = Math.pow(10, k);
    const m = [1, 2, 2.5, 5, 10].find((v) => v * e >= raw * (1 - 1e-9));
    const step = m * e, d = Math.max(0, -k + (m === 2.5 ? 1 : 0));
    const out = [];
    for (let i = 0; i <= Math.max(1, Math.ceil(top / step - 1e-9)); i++) out.push(i * step);
    return out.map((v) => ({ v, text: v.toLocaleString("en", { minimumFractionDigits: d, maximumFractionDigits: d }) }));
  }
  // xTicks are the CPU counts to mark: every one on a short axis (the
  // talk's 1–6), evenly spaced on a long one; the chosen count always.
  function xTicks(a, b, at, room) {
    const most = Math.max(6, Math.floor(room / 24)); // a tick every 24 px at least
    const step = b - a < most ? 1 : Math.ceil((b - a) / (most - 1));
    const out = [];
    for (let c = a; c <= b; c += step) out.push(c);
    if (out[out.length - 1] !== b) out.push(b);
    if (at >= a && at <= b && !out.includes(at)) out.push(at);
    return out.sort((x, y) => x - y);
  }
  // drawnWidth is the width to draw a chart at: the width it is shown at
  // (a phone's 366 px), so that its 12 px text shows at 12 px, up to 520;
  // 520 where it is not laid out yet.
  function drawnWidth(svg) {
    const w = svg.getBoundingClientRect().width;
    return w >= 240 ? Math.min(520, Math.round(w)) : 520;
  }
  // chart draws series against CPUs, each in its colour, the first (the
  // chosen mode) on top; at is the chosen CPU count, marked; band(p),
  // where given, is the first series' range [lo, hi] at p (the band the
  // costs' intervals span).
  function chart(svg, series, y, label, bound, band, at) {
    const W = drawnWidth(svg), H = 300, L = 62, R = 12, T = 14, B = 40;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const all = series.flatMap((s) => s.points);
    if (!all.length) { svg.innerHTML = ""; return []; }
    const xs = all.map((p) => p.cpus);
    const x0 = Math.min(...xs), x1 = Math.max(...xs);
    const banded = band && series[0] ? series[0].points.filter((p) => band(p)) : [];
    const ymax = Math.max(...all.map(y), ...(bound ? series.flatMap((s) => s.points.map(bound)) : []).filter(Number.isFinite), ...banded.map((p) => band(p)[1]));
    const yt = yTicks(ymax);
    const top = yt[yt.length - 1].v;
    const X = (v) => L + ((v - x0) / Math.max(1, x1 - x0)) * (W - L - R);
    const Y = (v) => H - B - (v / top) * (H - T - B);
    let g = "";
    for (const t of yt) g += `<line x1="${L}" x2="${W - R}" y1="${Y(t.v)}" y2="${Y(t.v)}" stroke="#eee"/><text class="ytick" x="${L - 6}" y="${Y(t.v) + 4}" text-anchor="end">${t.text}</text>`;
    for (const c of xTicks(x0, x1, Number(at), W - L - R)) {
      const chosen = c === Number(at);
      g += `<line x1="${X(c)}" x2="${X(c)}" y1="${H - B}" y2="${H - B + 4}" stroke="#999"/><text class="xtick" x="${X(c)}" y="${H - B + 16}" text-anchor="middle"${chosen ? ' font-weight="bold"' : ""}>${c}</text>`;
    }
    if (at >= x0 && at <= x1) g += `<line class="chosen" x1="${X(at)}" x2="${X(at)}" y1="${T}" y2="${H - B}" stroke="#999" stroke-dasharray="2 3"><title>the chosen count: ${at} CPUs</title></line>`;
    g += `<text x="${(L + W - R) / 2}" y="${H - 6}" text-anchor="middle">CPUs</text><text x="14" y="${T + (H - T - B) / 2}" transform="rotate(-90 14 ${T + (H - T - B) / 2})" text-anchor="middle">${esc(label)}</text>`;
    if (banded.length > 1) {
      const up = banded.map((p, j) => `${j ? "L" : "M"}${X(p.cpus)},${Y(band(p)[1])}`).join("");
      const down = banded.slice().reverse().map((p) => `L${X(p.cpus)},${Y(band(p)[0])}`).join("");
      g += `<path d="${up}${down}Z" fill="${series[0].colour}" opacity="0.15"><title>${esc(series[0].name)}: the band the costs' intervals span</title></path>`;
    }
    // Where lines coincide, a stretch between two CPU counts in the same
    // pixels (under fifo finelocking's and the pipelines', held by the same
    // machines, and ideal's with them up to 4 CPUs), the stretch is
    // striped: each series along it draws every k-th stripe in its colour,
    // so that none hides another. same lists those that coincide
    // throughout.
    const px = (p) => `${Math.round(X(p.cpus))},${Math.round(Y(y(p)))}`;
    const stretches = (s) => s.points.slice(1).map((p, j) => `${px(s.points[j])} ${px(p)}`);
    const along = new Map(), lines = new Map();
    for (const s of series) {
      for (const k of stretches(s)) along.set(k, (along.get(k) || []).concat([s]));
      const line = s.points.map(px).join(" ");
      lines.set(line, (lines.get(line) || []).concat([s.name]));
    }
    const same = [...lines.values()].filter((names) => names.length > 1);
    const S = 8; // px of a stripe
    // The others first, the chosen mode last: drawn on top.
    for (const s of series.slice(1).concat(series.slice(0, 1))) {
      const first = s === series[0], c = s.colour;
      if (bound) {
        const d = s.points.filter((p) => Number.isFinite(bound(p))).map((p, j) => `${j ? "L" : "M"}${X(p.cpus)},${Y(bound(p))}`).join("");
        if (d) g += `<path d="${d}" fill="none" stroke="${c}" stroke-width="1" stroke-dasharray="4 3" opacity="0.7"><title>${esc(s.name)}: structural bound</title></path>`;
      }
      stretches(s).forEach((k, j) => {
        const on = along.get(k), i = on.indexOf(s), n = on.length, q = s.points[j], p = s.points[j + 1];
        const look = n > 1 ? `stroke-dasharray="${S} ${(n - 1) * S}" stroke-dashoffset="${((n - i) % n) * S}"` : `stroke-linecap="round"`;
        g += `<path class="series" data-mode="${esc(s.name)}" d="M${X(q.cpus)},${Y(y(q))}L${X(p.cpus)},${Y(y(p))}" fill="none" stroke="${c}" stroke-width="${first ? 3 : 1.5}" ${look}/>`;
      });
      for (const p of s.points) {
        const here = series.filter((o) => o.points.some((q) => q.cpus === p.cpus && px(q) === px(p))).map((o) => o.name);
        g += `<circle cx="${X(p.cpus)}" cy="${Y(y(p))}" r="${first ? 3.5 : 2}" fill="${c}"><title>${esc(here.join(", "))} on ${p.cpus} CPUs: ${num(y(p))}</title></circle>`;
      }
    }
    svg.innerHTML = g;
    return same;
  }
  // sameNote says how coinciding lines are drawn, and names those that
  // coincide throughout in each chart.
  function sameNote(thr, lat, u) {
    const list = (groups) => groups.map((g) => g.slice(0, -1).join(", ") + " and " + g[g.length - 1]).join("; ");
    if (!thr.length && !lat.length) return "";
    const head = "Where lines coincide they are striped, a stripe in each one's colour";
    if (list(thr) === list(lat)) return `${head}; these coincide throughout: ${list(thr)}.`;
    const parts = [];
    if (thr.length) parts.push(`in ${u}, ${list(thr)}`);
    if (lat.length) parts.push(`in median latency, ${list(lat)}`);
    return `${head}; these coincide throughout ${parts.join("; ")}.`;
  }
  // compare draws the modes at one CPU count, as the talk's last charts:
  // throughput as bars, and latency as boxes for the middle 50 % (p25–p75)
  // with whiskers for the middle 90 % (p05–p95) and a tick at the median.
  function compare(series, at) {
    const rows = series.map((s) => ({ s, p: s.points.find((p) => p.cpus === Number(at)) })).filter((r) => r.p);
    rows.sort((a, b) => order(a.s.name) - order(b.s.name));
    $("cmptitle").textContent = rows.length ? `The designs on ${at} CPU${at > 1 ? "s" : ""}` : "";
    const L = 110, R = 24, T = 8, B = 40, rowH = 26, H = T + B + rowH * rows.length;
    const draw = (svg, label, hi, bar) => {
      const W = drawnWidth(svg);
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      if (!rows.length) { svg.innerHTML = ""; return; }
      const xt = yTicks(hi), top = xt[xt.length - 1].v;
      const X = (v) => L + (v / top) * (W - L - R);
      let g = "";
      for (const t of xt) g += `<line x1="${X(t.v)}" x2="${X(t.v)}" y1="${T}" y2="${H - B}" stroke="#eee"/><text class="ytick" x="${X(t.v)}" y="${H - B + 16}" text-anchor="middle">${t.text}</text>`;
      g += `<text x="${(L + W - R) / 2}" y="${H - 6}" text-anchor="middle">${esc(label)}</text>`;
      rows.forEach((r, i) => {
        const yc = T + i * rowH + rowH / 2, chosen = r.s === series[0];
        g += `<text x="${L - 6}" y="${yc + 4}" text-anchor="end"${chosen ? ' font-weight="bold"' : ""}>${esc(r.s.name)}</text>`;
        g += bar(r, X, yc);
      });
      svg.innerHTML = g;
    };
    const u = rows.length ? unit(rows[0].p) : "";
    draw($("cmpthr"), u, Math.max(...rows.map((r) => r.p.throughput)), (r, X, yc) =>
      `<rect class="bar" data-mode="${esc(r.s.name)}" x="${X(0)}" y="${yc - 8}" width="${X(r.p.throughput) - X(0)}" height="16" fill="${r.s.colour}"><title>${esc(r.s.name)} on ${at} CPUs: ${num(r.p.throughput)} ${esc(u)}</title></rect>`);
    draw($("cmplat"), "latency (ms)", Math.max(...rows.map((r) => r.p.latency_ms.p95)), (r, X, yc) => {
      const l = r.p.latency_ms, c = r.s.colour;
      return `<g class="box" data-mode="${esc(r.s.name)}"><title>${esc(r.s.name)} on ${at} CPUs: p05 ${ms(l.p05)}, p25 ${ms(l.p25)}, median ${ms(l.p50)}, p75 ${ms(l.p75)}, p95 ${ms(l.p95)}</title>` +
        `<line x1="${X(l.p05)}" x2="${X(l.p95)}" y1="${yc}" y2="${yc}" stroke="${c}" stroke-width="1.5"/>` +
        `<line x1="${X(l.p05)}" x2="${X(l.p05)}" y1="${yc - 5}" y2="${yc + 5}" stroke="${c}"/><line x1="${X(l.p95)}" x2="${X(l.p95)}" y1="${yc - 5}" y2="${yc + 5}" stroke="${c}"/>` +
        `<rect x="${X(l.p25)}" y="${yc - 8}" width="${Math.max(2, X(l.p75) - X(l.p25))}" height="16" fill="${c}" opacity="0.85"/>` +
        `<line x1="${X(l.p50)}" x2="${X(l.p50)}" y1="${yc - 9}" y2="${yc + 9}" stroke="#1d1d1f" stroke-width="2"/></g>`;
    });
    $("cmpnote").textContent = rows.length ? `Each design's point at ${at} CPUs, from the same points as the curves above. Latency: the box holds the middle 50 % of the ${u.replace(/\/s$/, "")} (p25–p75), the whiskers the middle 90 % (p05–p95), the dark tick the median.` : "";
  }
  // order is a mode's place in the comparison: the talk's, then the rest.
  const order = (m) => (OFFERED.includes(m) ? OFFERED.indexOf(m) : OFFERED.length);
  // detail is the chosen mode's curve once each point has its causal
  // profile (and under go its band), by CPU count; null before.
  let detail = null;
  function showCurves(ps, st) {
    const by = new Map();
    for (const p of ps) {
      if (!by.has(p.mode)) by.set(p.mode, []);
      by.get(p.mode).push(p);
    }
    const col = colours([...by.keys()].sort((a, b) => order(a) - order(b)));
    const series = [...by.entries()].map(([name, points]) => ({ name, points, colour: col[name] }));
    const legend = series.slice().sort((a, b) => order(a.name) - order(b.name));
    $("legend").innerHTML = legend.map((s) => `<span data-mode="${esc(s.name)}" data-colour="${s.colour}"><i style="background:${s.colour}${s === series[0] ? ";height:5px" : ""}"></i>${s === series[0] ? `<b>${esc(s.name)}</b>` : esc(s.name)}${racy(s.name) ? " (data race: a reference)" : ""}</span>`).join("") + `<span class="muted">dashed: each design's structural bound; dotted: the chosen ${st.cpus} CPUs</span>`;
    const u = ps.length ? unit(ps[0]) : "";
    const bandAt = (p) => (detail && detail.get(p.cpus) && detail.get(p.cpus).band) || null;
    const sameThr = chart($("thrchart"), series, (p) => p.throughput, u, (p) => (p.bounds ? p.bounds.structural || p.bounds.throughput_max : NaN), (p) => (bandAt(p) ? bandAt(p).throughput : null), st.cpus);
    const sameLat = chart($("latchart"), series, (p) => p.latency_ms.p50, "median latency (ms)", null, (p) => (bandAt(p) ? bandAt(p).p50_ms : null), st.cpus);
    $("samenote").textContent = sameNote(sameThr, sameLat, u);
    compare(series, st.cpus);
    const tb = $("limits").tBodies[0];
    tb.innerHTML = "";
    for (const p of series[0] ? series[0].points : []) {
      const d = detail && detail.get(p.cpus);
      const bn = (d && d.bottleneck) || {};
      const recommend = (bn.said && bn.said.recommend) || [];
      const help = recommend.length ? esc(recommend.join("; ")) + " " + pct(bn.gain) : "";
      const tr = tb.insertRow();
      // The bound rounded up, as the headline's "at most" and the CLI's
      // table write it, so that no figure shown passes it; a figure past
      // the bound itself is marked, its reason in its title.
      const above = ((p.trust && p.trust.above) || []).filter((a) => a.bound === "throughput_max");
      const fig = above.length ? `<td class="num above" title="${esc(above.map((a) => a.said).join("; "))}">${num(p.throughput)} †</td>` : `<td class="num">${num(p.throughput)}</td>`;
      tr.innerHTML = `<td class="num">${p.cpus}</td>${fig}<td class="num">${p.bounds ? numAtMost(p.bounds.throughput_max) : ""}</td><td>${d ? esc(limitWords(d.bottleneck)) : '<span class="muted">…</span>'}</td><td>${help}</td>`;
    }
    const marked = series[0] && series[0].points.some((p) => ((p.trust && p.trust.above) || []).some((a) => a.bound === "throughput_max"));
    const banded = detail && [...detail.values()].some((p) => p.band);
    $("curvenote").textContent = series[0] ? `The table is ${series[0].name}'s; its curve and bounds come from the same points${banded ? ", and the shaded band from the same points simulated at the edges of the go policy's cost intervals" : ""}${detail ? "" : "; what limits each point comes once its causal profile is simulated"}.${marked ? " †: a figure past its ceiling's exact value, the reason in its tooltip, as brewput model's note gives it." : ""}` : "";
  }

  // ---- the schedule ----
  let timeline = null;
  function drawSchedule() {
    const cv = $("schedcanvas"), ctx = cv.getContext("2d");
    if (!timeline) {
      ctx.clearRect(0, 0, cv.width, cv.height);
      return;
    }
    // Drawn at the width it is shown, not scaled to it, so that its text
    // is as large on a phone's 390 px as on a desktop; a row as tall as
    // its label at least, however many CPUs.
    const t = timeline, dpr = window.devicePixelRatio || 1;
    const width = cv.clientWidth || 980, rowH = Math.max(12, Math.min(28, 240 / t.cpus));
    const height = t.cpus * rowH + 30;
    cv.width = Math.round(width * dpr);
    cv.height = Math.round(height * dpr);
    cv.style.height = height + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = "12px system-ui";
    // The rows start past the widest CPU's label.
    const L = Math.ceil(ctx.measureText("CPU " + (t.cpus - 1)).width) + 12, W = width - L - 8;
    const span = t.span_ms, upto = (Number($("scrub").value) / 1000) * span;
    $("scrubout").textContent = `${upto.toFixed(1)} of ${span} ms`;
    const colour = PALETTE.steps;
    // CPUs numbered from 0, as the report's schedule, the CLI's and Go's
    // trace number them.
    const labels = [];
    for (let c = 0; c < t.cpus; c++) {
      ctx.fillStyle = "#1d1d1f";
      labels.push("CPU " + c);
      ctx.fillText(labels[c], 4, c * rowH + rowH / 2 + 4);
      ctx.fillStyle = "#f3f3f5";
      ctx.fillRect(L, c * rowH + 1, W, rowH - 2);
    }
    for (const b of t.bars) {
      if (b.start_ms >= upto) continue;
      const end = Math.min(b.end_ms, upto);
      ctx.fillStyle = colour[b.kind] || colour[""];
      const x = L + (b.start_ms / span) * W, w = Math.max(1, ((end - b.start_ms) / span) * W);
      ctx.fillRect(x, b.cpu * rowH + 2, w, rowH - 4);
      if (rowH >= 16 && w > ctx.measureText(String(b.who)).width + 4) {
        ctx.fillStyle = "#fff";
        ctx.fillText(String(b.who), x + 2, b.cpu * rowH + rowH / 2 + 4);
      }
    }
    cv.dataset.labels = labels.join(",");
    // The time axis: its ends, and its middle.
    ctx.fillStyle = "#1d1d1f";
    const y = t.cpus * rowH + 20;
    ctx.fillText("0", L, y);
    ctx.textAlign = "center";
    ctx.fillText(String(span / 2), L + W / 2, y);
    ctx.textAlign = "right";
    ctx.fillText(span + " ms", L + W, y);
    ctx.textAlign = "left";
  }
  window.addEventListener("resize", drawSchedule);

  // ---- the flow: a control moves → the point, fast; then its band and
  // causal profile; the curve; the schedule ----
  let current = null;
  async function update(st) {
    const myState = JSON.stringify(st);
    current = myState;
    writeHash(st);
    $("error").textContent = "";
    const mode = st.mode, cpus = st.cpus;
    const full = args(st, mode, cpus);
    $("command").textContent = shell(full);
    const fs = files(st);
    const t0 = performance.now();
    const status = (s) => { if (current === myState) $("status").textContent = s; };
    status("simulating…");
    $("tourtext").textContent = "";
    // brewput schedule draws the coffee shop's modes only: a YAML system
    // has no schedule to show, and the shop's last one is not its.
    $("schedule").hidden = !!st.model;
    if (st.model) timeline = null;
    // Until it is drawn, the caption names what is coming, never nothing.
    else $("schedtitle").textContent = `${mode} on ${cpus} CPUs (simulating)`;
    const fail = (out) => {
      if (current !== myState) return true;
      if (out.code !== 0) {
        $("error").textContent = out.stderr.trim();
        document.body.dataset.done = "error";
        $("result").textContent = "";
        $("result").dataset.args = "";
        $("resulttext").textContent = "";
        status("");
        return true;
      }
      return false;
    };
    try {
      // First the point alone (no band, no causal profile): one
      // simulation, with the CPUs to itself.
      for (const l of Object.values(lanes)) stop(l);
      const bare = ["--band=false", "--causal=false"];
      const q = await run("point", args(st, mode, cpus, bare), fs);
      if (fail(q)) return;
      showPoint(points(q)[0], st, false);
      document.body.dataset.first = String(Math.round(performance.now() - t0));
      status(`first answer in ${Math.round(performance.now() - t0)} ms; its band and causal profile, the curve…`);
      // Then the point with its band and causal profile, beside the
      // chosen mode's curve, points alone.
      // The talk's 1–6 CPUs, or up to the chosen count past them.
      const maxc = Math.max(6, Number(cpus) || 1);
      const curve = run("curve", args(st, st.model ? "" : mode, `1-${maxc}`, bare), fs);
      curve.catch(() => {}); // superseded if the point fails
      const f = await run("point", full, fs);
      if (fail(f)) return;
      showPoint(points(f)[0], st, true);
      $("result").textContent = f.stdout.trim();
      $("result").dataset.args = JSON.stringify(full);
      $("resulttext").textContent = f.stdout.trim();
      document.body.dataset.point = String(Math.round(performance.now() - t0));
      status(`answer with its band and causal profile in ${Math.round(performance.now() - t0)} ms; the curve…`);
      const c = await curve;
      if (fail(c)) return;
      detail = null;
      let curvePoints = points(c);
      showCurves(curvePoints, st);
      document.body.dataset.curve = String(Math.round(performance.now() - t0));
      status(`the curve in ${Math.round(performance.now() - t0)} ms; the others and the schedule…`);
      // Then the modes compared and the schedule, side by side.
      const others = st.model ? "" : st.compare.split(",").filter((m) => m && m !== mode).join(",");
      const o = others ? run("others", args(st, others, `1-${maxc}`, bare), fs) : null;
      const sched = st.model ? null : run("schedule", scheduleArgs(st), fs);
      for (const p of [o, sched]) if (p) p.catch(() => {});
      if (o) {
        const out = await o;
        if (current !== myState) return;
        if (out.code === 0) {
          curvePoints = curvePoints.concat(points(out));
          showCurves(curvePoints, st);
        }
      }
      if (sched) {
        const s = await sched;
        if (current !== myState) return;
        if (s.code === 0) {
          timeline = JSON.parse(s.stdout)[0];
          $("schedtitle").textContent = timeline.title;
          $("schedcommand").textContent = shell(scheduleArgs(st).filter((x) => x !== "--format" && x !== "json"));
          $("schedsummary").textContent = timeline.summary;
          drawSchedule();
        } else {
          timeline = null;
          $("schedtitle").textContent = `${st.mode} on ${st.cpus} CPUs`;
          $("schedsummary").textContent = s.stderr.trim();
          drawSchedule();
        }
      }
      document.body.dataset.others = String(Math.round(performance.now() - t0));
      // Last the chosen mode's curve again, each point with its causal
      // profile (and under go its band): several simulations a point.
      status(`all but the curve's limits in ${Math.round(performance.now() - t0)} ms; what limits each point…`);
      const b = await run("curve", args(st, st.model ? "" : mode, `1-${maxc}`), fs);
      if (current !== myState) return;
      if (b.code === 0) {
        detail = new Map(points(b).map((p) => [p.cpus, p]));
        showCurves(curvePoints, st);
        document.body.dataset.limits = String(Math.round(performance.now() - t0));
        showTour(st, curvePoints);
        status(`done in ${Math.round(performance.now() - t0)} ms, with what limits each point`);
      }
      document.body.dataset.done = "ok";
    } catch (e) {
      if (!(e instanceof Superseded)) {
        $("error").textContent = String(e);
        status("");
      }
    }
  }
  function scheduleArgs(st) {
    const a = ["schedule", "--mode", st.mode, "--cpus", st.cpus, "--format", "json"];
    if (st.sched !== "go") a.push("--sched", st.sched);
    if (st.rate) a.push("--rate", st.rate);
    else if (st.par) a.push("--par", st.par);
    for (const s of STEPS) if (st[s] !== "") a.push(flag(s), st[s] + "ms");
    if (st.sched === "go") a.push("--calibration", CAL_PATH);
    return a;
  }

  // ---- controls ----
  function fill(st) {
    const fam = $("family");
    if (!fam.options.length) {
      for (const m of MODES) fam.add(new Option(m.param ? m.name + "-N" : m.name, m.name));
      $("compare").innerHTML = OFFERED.map((m) => `<label style="display:inline-block;margin-right:6px"><input type="checkbox" value="${m}"> ${m}</label>`).join("");
    }
    const [name, n] = splitMode(st.mode);
    fam.value = name;
    const fm = MODES.find((m) => m.name === name);
    $("nrow").style.display = fm && fm.param ? "" : "none";
    $("nlabel").textContent = fm && fm.param ? "N (" + fm.param + ")" : "N";
    if (n !== "") $("n").value = n;
    $("summary").textContent = fm ? fm.summary : "";
    for (const c of $("compare").querySelectorAll("input")) c.checked = st.compare.split(",").includes(c.value);
    $("cpus").value = st.cpus;
    $("cpusout").textContent = st.cpus;
    $("par").value = st.par;
    $("rate").value = st.rate;
    document.querySelector(`input[name=loop][value=${st.rate ? "open" : "closed"}]`).checked = true;
    for (const s of STEPS) $(s).value = st[s];
    document.querySelector(`input[name=sched][value=${st.sched === "fifo" ? "fifo" : "go"}]`).checked = true;
    $("dur").value = st.dur;
    $("barsummary").textContent = [st.model ? "your YAML system" : st.mode, st.cpus + (st.cpus === "1" ? " CPU" : " CPUs"),
      st.sched, st.par ? st.par + " customers" : "", st.rate ? st.rate + " arrivals/s" : ""].filter((s) => s).join(" · ");
    document.querySelector(`input[name=system][value=${st.model ? "yaml" : "shop"}]`).checked = true;
    if (st.model) {
      $("yaml").value = yamlOf(st);
      $("yamlbox").open = true;
    }
  }
  function splitMode(mode) {
    const m = /^([a-z]+)(?:-(\d+))?$/.exec(mode) || [mode, mode, ""];
    return [m[1], m[2] || ""];
  }
  function read() {
    const st = { ...DEFAULTS };
    const fm = MODES.find((m) => m.name === $("family").value);
    st.mode = fm && fm.param ? `${fm.name}-${$("n").value || 1}` : $("family").value;
    st.compare = [...$("compare").querySelectorAll("input:checked")].map((c) => c.value).join(",");
    st.cpus = $("cpus").value;
    const open = document.querySelector("input[name=loop]:checked").value === "open";
    st.rate = open ? $("rate").value || "1000" : "";
    st.par = open ? "" : $("par").value;
    for (const s of STEPS) st[s] = $(s).value;
    st.sched = document.querySelector("input[name=sched]:checked").value;
    st.dur = $("dur").value;
    if (document.querySelector("input[name=system]:checked").value === "yaml" && $("yaml").value.trim()) st.model = encodeYAML($("yaml").value);
    return st;
  }
  let timer = null;
  function changed() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const st = read();
      fill(st);
      update(st);
    }, 30);
  }
  $("controls").addEventListener("input", (e) => { if (e.target.id !== "yaml") changed(); });
  $("useyaml").addEventListener("click", () => {
    document.querySelector("input[name=system][value=yaml]").checked = true;
    changed();
  });
  // On a phone, the bar's button opens the controls over the page, just
  // under the bar, and closes them on the answer they changed.
  $("barbutton").addEventListener("click", () => {
    const open = !document.body.classList.contains("controlsopen");
    document.body.style.setProperty("--barh", $("bar").getBoundingClientRect().bottom + "px");
    // The controls leave the page's flow for the screen: the room they
    // took is kept, so that the page stays where the reader was.
    document.querySelector(".layout").style.paddingBottom = open ? document.querySelector("aside").getBoundingClientRect().height + "px" : "";
    document.body.classList.toggle("controlsopen", open);
    $("barbutton").textContent = open ? "done" : "change";
    $("barbutton").setAttribute("aria-expanded", String(open));
  });
  $("scrub").addEventListener("input", drawSchedule);
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("result").textContent));
  window.addEventListener("hashchange", () => {
    const st = readHash();
    if (JSON.stringify(st) === current) return;
    fill(st);
    update(st);
  });

  // ---- start ----
  (async () => {
    const t0 = performance.now();
    const bin = atob(globalThis.brewputEngine.wasmGzip);
    const packed = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) packed[i] = bin.charCodeAt(i);
    const wasm = await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    wasmModule = await WebAssembly.compile(wasm);
    document.body.dataset.engine = String(Math.round(performance.now() - t0));
    const st = readHash();
    fill(st);
    if (!$("yaml").value) $("yaml").value = EXAMPLE_YAML;
    const steps = [["grinder", "grind"], ["espresso", "press"], ["steamer", "steam"], ["combine", "combine"], ["", "other Go code"]];
    $("schedkey").innerHTML = steps.map(([k, name]) => `<span style="color:${PALETTE.steps[k]}">■</span> ${name}`).join(" ");
    update(st);
  })().catch((e) => { $("error").textContent = "the engine did not start: " + e; });

  const EXAMPLE_YAML = JSON.parse($("example").textContent);

  // ---- the talk, step by step ----
  // Each step of the talk's argument is a link to one experiment, under
  // fifo, and one or two sentences whose numbers are read from the points
  // the page drew for it (at(mode, cpus)), shown only on that experiment.
  const TOUR = [
    { name: "ideal", st: { mode: "ideal" }, say: (at) =>
      `No lock at all: ${num(at("ideal", 1).throughput)} lattes/s on 1 CPU, ${num(at("ideal", 6).throughput)} on 6, every latte ${ms(at("ideal", 6).latency_ms.p50)}: the CPUs' own limit. It is a data race, the talk's reference, not a design.` },
    { name: "one lock", st: { mode: "locking" }, say: (at) =>
      `One lock around the whole kitchen: ${num(at("locking", 1).throughput)} lattes/s on 1 CPU and ${num(at("locking", 6).throughput)} on 6, while the median latte waits longer with each customer, ${ms(at("locking", 6).latency_ms.p50)} on 6. A lock held for the whole latte lets one be made at a time.` },
    { name: "a lock per machine", st: { mode: "finelocking" }, say: (at) => {
      const six = at("finelocking", 6);
      return `A lock per machine, held for its step only: lattes overlap, ${num(at("finelocking", 4).throughput)} lattes/s on 4 CPUs and ${num(six.throughput)} on 6` +
        (!six.bottleneck || cpusBind(six) ? "." : `, limited by ${limitWords(six.bottleneck)} (at most ${numAtMost(six.bounds.throughput_max)}): the schedule below shows ${machinesBound(six) > 1 ? "them" : "it"} busy all the time.`);
    } },
    { name: "two of each", st: { mode: "multi-2" }, say: (at) => {
      const six = at("multi-2", 6), ideal = at("ideal", 6);
      return `Two of each machine: ${num(six.throughput)} lattes/s on 6 CPUs` + (num(six.throughput) === num(ideal.throughput) ? `, as many as ideal's ${num(ideal.throughput)}` : ` (ideal: ${num(ideal.throughput)})`) +
        (six.bottleneck ? `, limited by ${limitWords(six.bottleneck)}` + (cpusBind(six) ? ": the CPUs are the wall again, with a design that has no race." : ".") : ".");
    } },
    { name: "pipelines", st: { mode: "linearpipe-0", jitter: "0.5", compare: "linearpipe-1,linearpipe-10" }, say: (at) =>
      `A pipeline, a goroutine a machine, its steps uneven (jitter 0.5 ms): unbuffered, a stage done early waits to hand on, ${num(at("linearpipe-0", 6).throughput)} lattes/s on 6 CPUs; a buffer of 1 absorbs the unevenness, ${num(at("linearpipe-1", 6).throughput)}; of 10, ${num(at("linearpipe-10", 6).throughput)}. Set the jitter to 0 and they are alike: a buffer pays only where steps vary.` },
    { name: "the CPUs as the wall", st: { mode: "multipipe-2" }, say: (at) => {
      const one = at("multipipe-2", 1), six = at("multipipe-2", 6);
      return `Two pipelines: ${num(one.throughput)} lattes/s on 1 CPU, ${num(six.throughput)} on 6` + (num(six.throughput) === num(at("ideal", 6).throughput) ? ", as ideal" : "") +
        (six.bottleneck ? `, limited by ${limitWords(six.bottleneck)}` + (cpusBind(six) ? ": with machines to spare the CPUs are the wall." : ".") : ".");
    } },
  ];
  // Whether the CPUs are among what limits a point, and how many of what
  // limits it are not: its causal profile's decision, the one every
  // surface names (limitWords).
  const limiting = (p) => (p.bottleneck && p.bottleneck.resources && p.bottleneck.resources.length ? p.bottleneck.resources : [p.bottleneck ? p.bottleneck.resource : ""]);
  const cpusBind = (p) => limiting(p).includes("cpus");
  const machinesBound = (p) => limiting(p).filter((r) => r !== "cpus" && r !== "customers").length;
  const tourState = (step) => ({ ...DEFAULTS, ...step.st });
  const tourHash = (step) => {
    const h = new URLSearchParams();
    for (const [k, v] of Object.entries(tourState(step))) if (v !== DEFAULTS[k] || ALWAYS.includes(k)) h.set(k, v);
    return "#" + h.toString().replace(/%2C/g, ",");
  };
  $("tour").insertAdjacentHTML("beforeend", TOUR.map((step, i) => `<a href="${tourHash(step)}" data-step="${i}">${i + 1} ${esc(step.name)}</a>`).join(" · "));
  // showTour writes the step's sentences, if st is one of the steps, from
  // the drawn points.
  function showTour(st, pts) {
    const same = (a) => Object.keys(DEFAULTS).every((k) => String(a[k]) === String(st[k]));
    const i = TOUR.findIndex((step) => same(tourState(step)));
    for (const a of $("tour").querySelectorAll("a")) a.classList.toggle("here", Number(a.dataset.step) === i);
    $("tourtext").textContent = "";
    if (i < 0) return;
    // The figures are the drawn points'; what limits the chosen mode's,
    // its causal profile's (detail), as its table names it.
    const at = (mode, cpus) => {
      const p = pts.find((q) => q.mode === mode && q.cpus === cpus);
      if (!p) throw new Error(`no point of ${mode} on ${cpus} CPUs drawn`);
      const d = mode === st.mode && detail && detail.get(cpus);
      return d && d.bottleneck ? { ...p, bottleneck: d.bottleneck } : p;
    };
    try {
      $("tourtext").textContent = TOUR[i].say(at);
    } catch (e) {
      $("tourtext").textContent = "";
    }
  }
})();

// The dashboard: polls the server's JSON routes and draws them. Everything that came from a
// client (ids, results, reasons) is untrusted text: it is only ever set with textContent.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = null) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = String(text);
  return node;
}

// The operator's token: opened as /#token=…, kept for this tab only (sessionStorage) and taken
// out of the address bar. The fragment never reaches the server or its logs.
function token() {
  const found = new URLSearchParams(location.hash.slice(1)).get("token");
  if (found) {
    sessionStorage.setItem("zeenot-token", found);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem("zeenot-token");
}

async function json(url) {
  const secret = token();
  const headers = secret ? { authorization: `Bearer ${secret}` } : {};
  const response = await fetch(url, { cache: "no-store", headers });
  if (response.status === 401) throw new Error("an operator's token is needed: open this page as /#token=…");
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

function when(iso) {
  return new Date(iso).toLocaleTimeString();
}

function bars(chart) {
  const values = chart.values.map(Number);
  const labels = chart.labels || values.map((_, i) => String(i));
  const width = 420, height = 160, top = 10, bottom = 28;
  const max = Math.max(1, ...values);
  const step = width / Math.max(1, values.length);
  const svg = el("svg:svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart bars" });
  values.forEach((v, i) => {
    const h = ((height - top - bottom) * v) / max;
    const bar = el("svg:rect", { x: i * step + 3, y: height - bottom - h, width: Math.max(1, step - 6), height: h, fill: "#3b6fd8", class: "bar" });
    bar.appendChild(el("svg:title", {}, `${labels[i]}: ${v}`));
    svg.appendChild(bar);
    svg.appendChild(el("svg:text", { x: i * step + step / 2, y: height - bottom + 14, "text-anchor": "middle" }, labels[i]));
    svg.appendChild(el("svg:text", { x: i * step + step / 2, y: height - bottom - h - 3, "text-anchor": "middle" }, v));
  });
  return svg;
}

function heatmap(chart) {
  const values = chart.values.map(Number);
  const cols = Math.max(1, Number(chart.width) || values.length);
  const rows = Math.ceil(values.length / cols);
  const cell = 52;
  const max = Math.max(1, ...values);
  const svg = el("svg:svg", { width: cols * cell, height: rows * cell, role: "img", class: "chart heatmap" });
  values.forEach((v, i) => {
    const x = (i % cols) * cell, y = Math.floor(i / cols) * cell;
    const shade = Math.round(235 - (190 * v) / max);
    const rect = el("svg:rect", { x, y, width: cell - 2, height: cell - 2, fill: `rgb(${shade},${shade + 10},255)`, class: "cell" });
    rect.appendChild(el("svg:title", {}, `cell ${i}: ${v}`));
    svg.appendChild(rect);
    svg.appendChild(el("svg:text", { x: x + cell / 2 - 1, y: y + cell / 2 + 4, "text-anchor": "middle" }, v));
  });
  return svg;
}

function chartOf(view) {
  const box = el("div", { class: "chart-box" });
  if (view.kind === "bars" || view.kind === "heatmap") {
    box.appendChild(el("p", { class: "chart-title" }, view.title || ""));
    box.appendChild(view.kind === "bars" ? bars(view) : heatmap(view));
    if (view.note) box.appendChild(el("p", { class: "chart-note" }, view.note));
  } else {
    box.appendChild(el("p", { class: "chart-title" }, view.title || "accepted"));
    box.appendChild(el("p", { class: "count-value" }, view.value));
  }
  return box;
}

async function drawApp(name, section) {
  const [submissions, view] = await Promise.all([
    json(`/api/apps/${encodeURIComponent(name)}/submissions?limit=10`),
    json(`/api/apps/${encodeURIComponent(name)}/dashboard`),
  ]);
  const box = el("article", { class: "app", "data-app": name });
  const title = el("h2", {}, name);
  box.appendChild(title);
  box.appendChild(el("p", { class: "count" }, `${view.accepted} accepted submission${view.accepted === 1 ? "" : "s"}`));
  const grid = el("div", { class: "grid" });
  const table = el("table", { class: "submissions" });
  const head = el("tr");
  for (const h of ["when", "submission", "result"]) head.appendChild(el("th", {}, h));
  table.appendChild(el("thead")).appendChild(head);
  const body = table.appendChild(el("tbody"));
  for (const s of submissions) {
    const row = el("tr", { class: "submission" });
    row.appendChild(el("td", {}, when(s.accepted_at)));
    row.appendChild(el("td", { class: "id" }, s.id));
    row.appendChild(el("td", { class: "result" }, JSON.stringify(s.result)));
    body.appendChild(row);
  }
  grid.appendChild(table);
  grid.appendChild(chartOf(view.chart));
  box.appendChild(grid);
  if (Array.isArray(view.rounds) && view.rounds.length) box.appendChild(roundsOf(view.rounds));
  section.appendChild(box);
}

// A peers' application's latest rounds: who stalled or was dropped, and why (text only).
function roundsOf(rounds) {
  const list = el("ul", { class: "rounds" });
  for (const r of rounds) {
    const item = el("li", { class: "round" });
    const attempt = r.attempt === null ? "registering" : `attempt ${r.attempt}`;
    const state = r.failed ? `failed: ${r.failed}` : r.state;
    item.appendChild(el("span", { class: "round-name" }, `round ${r.round} (${attempt}, ${r.peers} peers): ${state}`));
    if (r.stalled.length) {
      const stalled = el("ul", { class: "stalled" });
      for (const s of r.stalled) {
        stalled.appendChild(el("li", { class: "stalled-peer" }, `${s.peer} dropped in attempt ${s.attempt}: ${s.reason}`));
      }
      item.appendChild(stalled);
    }
    list.appendChild(item);
  }
  return list;
}

async function refresh() {
  try {
    const apps = Object.keys(await json("/api/apps")).sort();
    const section = document.getElementById("apps");
    const fresh = el("section", { id: "apps", "aria-label": "applications" });
    for (const name of apps) await drawApp(name, fresh);
    section.replaceWith(fresh);
    const rejected = await json("/api/rejections?limit=20");
    const tbody = document.querySelector("#rejections tbody");
    const rows = el("tbody");
    for (const r of rejected) {
      const row = el("tr", { class: "rejection" });
      row.appendChild(el("td", {}, when(r.rejected_at)));
      row.appendChild(el("td", {}, r.app));
      row.appendChild(el("td", { class: "id" }, r.submission === null ? "—" : r.submission));
      row.appendChild(el("td", { class: "status" }, r.status));
      row.appendChild(el("td", { class: "reason" }, r.reason));
      rows.appendChild(row);
    }
    tbody.replaceWith(rows);
    document.getElementById("updated").textContent = `Updated ${new Date().toLocaleTimeString()}.`;
    document.body.dataset.ready = "1";
  } catch (err) {
    document.getElementById("updated").textContent = `Cannot read the server (${err.message}).`;
  }
}

refresh();
setInterval(refresh, 2000);
window.addEventListener("hashchange", refresh);

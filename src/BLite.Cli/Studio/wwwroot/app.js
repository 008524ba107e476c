// BLite Studio: one page, routed by the address's hash, talking to the studio's JSON API.
// Everything the database returns is put on the page as text (textContent), never as markup.
"use strict";

const state = { overview: null, collections: [] };
// The paging buttons of the documents page on screen, for the [ and ] keys.
let pageKeys = {};
const view = () => document.getElementById("view");

// ---- talking to the server ------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `the studio answered ${status}`);
    this.status = status;
    this.field = body && body.field;
  }
}

async function api(method, url, body, raw) {
  const init = { method, headers: {} };
  if (method !== "GET") {
    // The studio refuses any change without this header, which a form on another site cannot send.
    init.headers["X-BLite-Studio"] = "1";
  }
  if (body !== undefined) {
    if (raw) {
      init.body = body;
      init.headers["Content-Type"] = "application/octet-stream";
    } else {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
  }
  const response = await fetch(url, init);
  const type = response.headers.get("Content-Type") || "";
  const payload = type.includes("json") ? await response.json() : { error: (await response.text()).trim() };
  if (!response.ok) {
    throw new ApiError(response.status, payload);
  }
  return payload;
}

const enc = encodeURIComponent;
const collectionUrl = (name) => `/api/collections/${enc(name)}`;

// ---- small DOM helpers ----------------------------------------------------------------------

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(...nodes) {
  view().replaceChildren(...nodes);
}

function errorBox(error, id) {
  return el("div", { class: "error", role: "alert", id: id || null, text: error.message || String(error) });
}

const number = (n) => Number(n).toLocaleString("en-US");

function bytes(n) {
  if (n < 1024) return `${number(n)} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

// Re-indents JSON text without parsing it, so 64-bit integers and decimals print exactly as the server wrote them.
function prettyJson(text) {
  let out = "", indent = 0, inString = false;
  const newline = () => "\n" + "  ".repeat(indent);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i];
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"': inString = true; out += c; break;
      case "{": case "[": {
        const close = c === "{" ? "}" : "]";
        let j = i + 1;
        while (text[j] === " ") j++;
        if (text[j] === close) { out += c + close; i = j; break; }
        indent++; out += c + newline(); break;
      }
      case "}": case "]": indent--; out += newline() + c; break;
      case ",": out += "," + newline(); break;
      case ":": out += ": "; break;
      case " ": case "\n": case "\r": case "\t": break;
      default: out += c;
    }
  }
  return out;
}

// A short, readable cell for a value from relaxed Extended JSON.
function cell(value) {
  if (value === undefined) return { text: "", cls: "null" };
  if (value === null) return { text: "null", cls: "null" };
  if (typeof value === "number") return { text: String(value), cls: "num" };
  if (typeof value === "string" || typeof value === "boolean") return { text: String(value) };
  if (Array.isArray(value)) return { text: `[${value.length}] ` + value.slice(0, 4).map((v) => cell(v).text).join(", ") };
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0].startsWith("$")) {
    const inner = value[keys[0]];
    return { text: typeof inner === "object" && inner !== null ? JSON.stringify(inner) : String(inner), cls: typeof inner === "string" && /^-?\d/.test(inner) && keys[0] !== "$oid" && keys[0] !== "$date" ? "num" : undefined };
  }
  return { text: `{${keys.length} field${keys.length === 1 ? "" : "s"}} ` + keys.slice(0, 3).join(", ") };
}

// ---- navigation -----------------------------------------------------------------------------

function parseRoute() {
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, params };
}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function markCurrent(collection) {
  document.getElementById("nav-overview").toggleAttribute("aria-current", !collection);
  if (!collection) document.getElementById("nav-overview").setAttribute("aria-current", "page");
  for (const link of document.querySelectorAll("#nav-collections a")) {
    if (link.dataset.name === collection) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

async function loadSidebar() {
  state.collections = await api("GET", "/api/collections");
  const list = document.getElementById("nav-collections");
  list.replaceChildren(...state.collections.map((c) => el("li", {},
    el("a", { href: `#/c/${enc(c.name)}`, "data-name": c.name }, el("span", { text: c.name }), el("span", { class: "count", text: number(c.count) })))));
  if (state.collections.length === 0) list.append(el("li", { class: "muted", text: "none yet" }));
}

async function route() {
  const { parts, params } = parseRoute();
  try {
    if (parts[0] === "c" && parts[1]) {
      const name = parts[1];
      markCurrent(name);
      const page = parts[2] || "documents";
      const pages = { documents: documentsPage, query: queryPage, indexes: indexesPage, transfer: transferPage, edit: editPage };
      await (pages[page] || documentsPage)(name, params);
    } else {
      markCurrent(null);
      await overviewPage();
    }
  } catch (error) {
    show(errorBox(error));
  }
}

function collectionHeader(name, current) {
  const info = state.collections.find((c) => c.name === name);
  const tabs = [["documents", "Documents"], ["query", "Query"], ["indexes", "Indexes"], ["transfer", "Import / export"]];
  return [
    el("h1", {}, name, el("small", { id: "collection-count", text: info ? `${number(info.count)} documents` : "" })),
    el("nav", { class: "tabs", "aria-label": "Collection" }, tabs.map(([key, label]) =>
      el("a", { href: `#/c/${enc(name)}${key === "documents" ? "" : "/" + key}`, "aria-current": key === current ? "page" : null, text: label }))),
  ];
}

// ---- overview -------------------------------------------------------------------------------

async function overviewPage() {
  const o = await api("GET", "/api/overview");
  state.overview = o;
  const card = (label, value, small) => el("div", { class: "card" }, el("div", { class: "label", text: label }), el("div", { class: small ? "value small" : "value", text: value }));
  const report = el("div", { id: "check-report", "aria-live": "polite" });
  const checkButton = el("button", { class: "primary", id: "check-button", onclick: async () => {
    checkButton.disabled = true;
    report.replaceChildren(el("p", { class: "muted", text: "Checking every page, tree and index…" }));
    try {
      const r = await api("POST", "/api/check");
      report.replaceChildren(r.valid
        ? el("div", { class: "ok", role: "status", text: `ok: ${number(r.pageCount)} pages (${number(r.freePageCount)} free), no problems found` })
        : el("div", { class: "error", role: "alert", text: `${r.issues.length} problem(s) found:\n` + r.issues.join("\n") }));
    } catch (error) {
      report.replaceChildren(errorBox(error));
    } finally {
      checkButton.disabled = false;
    }
  } }, "Check database");

  const rows = state.collections.map((c) => {
    const size = el("td", { class: "num", text: "…" });
    api("GET", `${collectionUrl(c.name)}/size`).then((s) => { size.textContent = bytes(s.dataBytes); }, () => { size.textContent = "?"; });
    return el("tr", { tabindex: "0", onclick: () => go(`#/c/${enc(c.name)}`), onkeydown: (e) => { if (e.key === "Enter") go(`#/c/${enc(c.name)}`); } },
      el("td", { text: c.name }), el("td", { class: "num", text: number(c.count) }), size, el("td", { text: c.indexes.join(", ") }));
  });

  show(
    el("h1", {}, "Overview", el("small", { text: o.readOnly ? "read-only" : "read-write" })),
    el("p", { class: "muted", text: o.path }),
    el("div", { class: "cards" },
      card("Database file", bytes(o.fileBytes)),
      card("Write-ahead log", bytes(o.walBytes)),
      card("Pages (last checkpoint)", `${number(o.pageCount)} × ${bytes(o.pageSize)}`),
      card("Free pages", number(o.freePageCount)),
      card("Page cache", `${bytes(o.cachedBytes)} of ${bytes(o.cacheBudgetBytes)}`),
      card("Since the studio opened", `${number(o.commits)} commits, ${number(o.checkpoints)} checkpoints`, true),
      card("Last checkpoint / WAL", o.walState, true),
      card("Format version", String(o.formatVersion))),
    el("h2", { text: "Consistency" }),
    el("div", { class: "toolbar" }, checkButton, el("span", { class: "muted", text: "Verifies checksums, trees, indexes and counters (like 'blite check')." })),
    report,
    el("h2", { text: "Collections" }),
    state.collections.length === 0 ? el("p", { class: "muted", text: "This database has no collections yet." }) :
      el("table", { id: "collections-table" },
        el("thead", {}, el("tr", {}, el("th", { text: "Collection" }), el("th", { class: "num", text: "Documents" }), el("th", { class: "num", text: "Data size" }), el("th", { text: "Indexes" }))),
        el("tbody", {}, rows)));
}

// ---- documents ------------------------------------------------------------------------------

function documentTable(documents, onOpen) {
  const parsed = documents.map((d) => JSON.parse(d.json));
  const columns = ["_id"];
  for (const doc of parsed) {
    for (const key of Object.keys(doc)) {
      if (!columns.includes(key) && columns.length < 14) columns.push(key);
    }
  }
  const rows = documents.map((d, i) => {
    const row = el("tr", { tabindex: "0", "data-id": d.id }, columns.map((column) => {
      const c = cell(parsed[i][column]);
      return el("td", { class: c.cls, title: c.text, text: c.text });
    }));
    row.addEventListener("click", () => onOpen(d, row));
    row.addEventListener("keydown", (e) => {
      if (e.key === "Enter") onOpen(d, row);
      else if (e.key === "ArrowDown" && row.nextElementSibling) { e.preventDefault(); row.nextElementSibling.focus(); }
      else if (e.key === "ArrowUp" && row.previousElementSibling) { e.preventDefault(); row.previousElementSibling.focus(); }
    });
    return row;
  });
  return el("table", { class: "documents" },
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { text: c })))),
    el("tbody", {}, rows));
}

function jsonPanel(name, doc, readOnly, onClose) {
  const panel = el("aside", { class: "json-panel", "aria-label": "Document" },
    el("div", { class: "toolbar" },
      el("strong", { text: "Document" }),
      el("span", { class: "spacer" }),
      readOnly ? null : el("a", { class: "button", id: "edit-button", href: `#/c/${enc(name)}/edit?id=${enc(doc.id)}`, text: "Edit" }),
      readOnly ? null : el("button", { class: "danger", id: "delete-button", onclick: async () => {
        if (!confirm("Delete this document?")) return;
        try {
          await api("DELETE", `${collectionUrl(name)}/documents?id=${enc(doc.id)}`);
          await loadSidebar();
          route();
        } catch (error) { panel.append(errorBox(error)); }
      } }, "Delete"),
      el("button", { onclick: onClose, title: "Close (Esc)" }, "Close")),
    el("pre", { id: "document-json", text: prettyJson(doc.json) }));
  return panel;
}

function documentBrowser(name, documents, toolbarItems, extra) {
  const readOnly = state.overview ? state.overview.readOnly : false;
  const split = el("div", { class: "split single" });
  const left = el("div", {});
  let selected = null;
  const close = () => { split.classList.add("single"); if (split.children[1]) split.children[1].remove(); if (selected) selected.focus(); };
  const open = (doc, row) => {
    if (selected) selected.classList.remove("selected");
    selected = row; row.classList.add("selected");
    if (split.children[1]) split.children[1].remove();
    split.classList.remove("single");
    split.append(jsonPanel(name, doc, readOnly, close));
  };
  left.append(el("div", { class: "toolbar" }, toolbarItems), ...(extra || []),
    documents.length === 0 ? el("p", { class: "muted", text: "No documents." }) : documentTable(documents, open));
  split.append(left);
  split.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  return split;
}

async function documentsPage(name, params) {
  if (!state.overview) state.overview = await api("GET", "/api/overview");
  const query = new URLSearchParams();
  if (params.get("after")) query.set("after", params.get("after"));
  if (params.get("before")) query.set("before", params.get("before"));
  if (params.get("start")) query.set("start", params.get("start"));
  const page = await api("GET", `${collectionUrl(name)}/documents?${query}`);
  const docs = page.documents;
  const base = `#/c/${enc(name)}`;
  const previous = el("button", { id: "previous-page", disabled: !page.hasPrevious, title: "Previous page ([)",
    onclick: () => go(`${base}?before=${enc(docs[0].key)}`) }, "← Previous");
  const next = el("button", { id: "next-page", disabled: !page.hasNext || docs.length === 0, title: "Next page (])",
    onclick: () => go(`${base}?after=${enc(docs[docs.length - 1].key)}`) }, "Next →");
  const readOnly = state.overview.readOnly;
  const first = docs.length ? JSON.parse(docs[0].json)._id : null;
  const last = docs.length ? JSON.parse(docs[docs.length - 1].json)._id : null;
  show(...collectionHeader(name, "documents"),
    documentBrowser(name, docs, [
      previous, next,
      el("span", { class: "muted", id: "page-range", text: docs.length ? `${docs.length} documents, _id ${cell(first).text} … ${cell(last).text}` : "" }),
      el("span", { class: "spacer" }),
      el("form", { onsubmit: (e) => {
        e.preventDefault();
        const value = e.target.elements.start.value.trim();
        if (value) go(`${base}?start=${enc(`{"_id": ${value}}`)}`);
      } }, el("input", { name: "start", id: "go-to-id", class: "code-input", placeholder: "Go to _id: 500, \"c1\", {\"$oid\": …}", "aria-label": "Go to _id", size: "26" })),
      readOnly ? null : el("a", { class: "button", href: `${base}/edit`, id: "new-document", text: "New document" }),
    ]));
  pageKeys = { previous: page.hasPrevious ? previous : null, next: page.hasNext ? next : null };
}

// ---- query ----------------------------------------------------------------------------------

async function queryPage(name, params) {
  if (!state.overview) state.overview = await api("GET", "/api/overview");
  const filter = el("input", { id: "query-filter", class: "code-input", value: params.get("filter") || "{}", "aria-label": "Filter (JSON)", spellcheck: "false" });
  const sort = el("input", { id: "query-sort", class: "code-input", value: params.get("sort") || "", placeholder: "-total,customer.name", "aria-label": "Sort" });
  const limit = el("input", { id: "query-limit", type: "number", min: "1", max: "1000", value: params.get("limit") || "50", "aria-label": "Limit" });
  const errors = { filter: el("div", { class: "field-error", id: "filter-error", role: "alert" }), sort: el("div", { class: "field-error", id: "sort-error", role: "alert" }), limit: el("div", { class: "field-error", id: "limit-error", role: "alert" }) };
  const results = el("div", { id: "query-results" });
  const run = async () => {
    for (const box of Object.values(errors)) box.textContent = "";
    results.replaceChildren(el("p", { class: "muted", text: "Running…" }));
    try {
      const r = await api("POST", `${collectionUrl(name)}/query`, { filter: filter.value, sort: sort.value, limit: Number(limit.value) || 50 });
      results.replaceChildren(
        el("div", { class: "toolbar" },
          el("span", { class: "stat", id: "query-count", text: `${r.documents.length} document${r.documents.length === 1 ? "" : "s"}` }),
          el("span", { class: "stat muted", id: "query-time", text: `${r.elapsedMs.toFixed(1)} ms` })),
        el("h2", { text: "Plan" }),
        el("pre", { class: "plan", id: "query-plan", text: r.plan }),
        el("h2", { text: "Result" }),
        documentBrowser(name, r.documents, []));
    } catch (error) {
      if (error.field && errors[error.field]) {
        errors[error.field].textContent = error.message;
        results.replaceChildren();
        (error.field === "filter" ? filter : error.field === "sort" ? sort : limit).focus();
      } else {
        results.replaceChildren(errorBox(error));
      }
    }
  };
  const form = el("form", { class: "query-form", onsubmit: (e) => { e.preventDefault(); run(); } },
    el("div", {}, el("label", { for: "query-filter", text: "Filter (JSON, as for 'blite find')" }), filter, errors.filter),
    el("div", {}, el("label", { for: "query-sort", text: "Sort (fields, -desc)" }), sort, errors.sort),
    el("div", {}, el("label", { for: "query-limit", text: "Limit" }), limit, errors.limit),
    el("div", {}, el("label", { "aria-hidden": "true", text: "\u00a0" }), el("button", { class: "primary", id: "query-run", type: "submit" }, "Run")));
  show(...collectionHeader(name, "query"), form, results);
  filter.focus();
}

// ---- edit -----------------------------------------------------------------------------------

async function editPage(name, params) {
  if (!state.overview) state.overview = await api("GET", "/api/overview");
  const id = params.get("id");
  const isNew = !id;
  let original = "{\n  \n}";
  if (!isNew) {
    const doc = await api("GET", `${collectionUrl(name)}/document?id=${enc(id)}`);
    original = prettyJson(doc.canonical);
  }
  const editor = el("textarea", { class: "editor", id: "editor", spellcheck: "false", "aria-label": "Document (Extended JSON)" });
  editor.value = original;
  const message = el("div", { id: "edit-message", "aria-live": "polite" });
  const save = async () => {
    message.replaceChildren();
    const saved = document.getElementById("edit-saved");
    if (saved) saved.remove();
    try {
      JSON.parse(editor.value);
    } catch (error) {
      message.replaceChildren(errorBox(new Error("not valid JSON: " + error.message), "edit-error"));
      return;
    }
    try {
      const result = isNew
        ? await api("POST", `${collectionUrl(name)}/documents`, { json: editor.value })
        : await api("PUT", `${collectionUrl(name)}/documents`, { json: editor.value });
      await loadSidebar();
      go(`#/c/${enc(name)}/edit?id=${enc(result.id)}&saved=1`);
    } catch (error) {
      message.replaceChildren(errorBox(error, "edit-error"));
    }
  };
  editor.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); save(); } });
  show(...collectionHeader(name, null),
    el("h2", { text: isNew ? "New document" : "Edit document" }),
    el("p", { class: "muted", text: "Canonical Extended JSON keeps every type exactly ({\"$numberLong\": …}, {\"$date\": …}). The document is checked before anything is written." }),
    params.get("saved") ? el("div", { class: "ok", role: "status", id: "edit-saved", text: "Saved." }) : null,
    message,
    editor,
    el("div", { class: "toolbar" },
      state.overview.readOnly ? el("span", { class: "muted", text: "Read-only: changes cannot be saved." }) : el("button", { class: "primary", id: "save-button", onclick: save }, "Save"),
      el("a", { class: "button", href: `#/c/${enc(name)}`, text: "Back to documents" })));
  editor.focus();
}

// ---- indexes --------------------------------------------------------------------------------

async function indexesPage(name) {
  if (!state.overview) state.overview = await api("GET", "/api/overview");
  const indexes = await api("GET", `${collectionUrl(name)}/indexes`);
  const readOnly = state.overview.readOnly;
  const message = el("div", { "aria-live": "polite", id: "index-message" });
  const rows = indexes.map((i) => el("tr", {},
    el("td", { text: i.name }), el("td", { text: i.fields.join(", ") }), el("td", { text: i.primary ? "yes (primary key)" : i.unique ? "yes" : "no" }),
    el("td", {}, readOnly || i.primary ? null : el("button", { class: "danger", onclick: async () => {
      if (!confirm(`Drop index ${i.name}?`)) return;
      try { await api("DELETE", `${collectionUrl(name)}/indexes/${enc(i.name)}`); await loadSidebar(); route(); } catch (error) { message.replaceChildren(errorBox(error)); }
    } }, "Drop"))));
  const indexName = el("input", { id: "index-name", placeholder: "by_status", "aria-label": "Index name" });
  const fields = el("input", { id: "index-fields", class: "code-input", placeholder: "status, customer.email", "aria-label": "Fields" });
  const unique = el("input", { id: "index-unique", type: "checkbox" });
  const create = el("form", { class: "toolbar", onsubmit: async (e) => {
    e.preventDefault();
    const button = create.querySelector("button");
    button.disabled = true;
    const bar = el("progress", { id: "index-progress", max: "1", value: "0" });
    const status = el("span", { class: "muted", text: `Building ${indexName.value}…` });
    message.replaceChildren(el("div", { class: "toolbar" }, bar, status));
    // The build is one request; its progress is read beside it until the request answers.
    const progressUrl = `${collectionUrl(name)}/indexes/${enc(indexName.value)}/progress`;
    let building = true;
    const poll = async () => {
      while (building) {
        try {
          const p = await api("GET", progressUrl);
          if (!building) break;
          bar.max = Math.max(p.total, 1); bar.value = p.read;
          status.textContent = p.read < p.total ? `read ${number(p.read)} of ${number(p.total)} documents` : "writing the index…";
        } catch { /* not started yet */ }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    poll();
    try {
      await api("POST", `${collectionUrl(name)}/indexes`, { name: indexName.value, fields: fields.value, unique: unique.checked });
      building = false;
      await loadSidebar();
      route();
    } catch (error) { building = false; message.replaceChildren(errorBox(error)); button.disabled = false; }
  } },
    el("div", {}, el("label", { for: "index-name", text: "Name" }), indexName),
    el("div", {}, el("label", { for: "index-fields", text: "Fields (comma-separated paths)" }), fields),
    el("div", {}, el("label", { for: "index-unique", text: "Unique" }), unique),
    el("div", {}, el("label", { text: "\u00a0" }), el("button", { class: "primary", type: "submit" }, "Create index")));
  show(...collectionHeader(name, "indexes"),
    el("table", { id: "indexes-table" },
      el("thead", {}, el("tr", {}, el("th", { text: "Index" }), el("th", { text: "Fields" }), el("th", { text: "Unique" }), el("th", { text: "" }))),
      el("tbody", {}, rows)),
    readOnly ? null : el("h2", { text: "Create an index" }),
    readOnly ? null : create,
    message);
}

// ---- import / export ------------------------------------------------------------------------

async function transferPage(name) {
  if (!state.overview) state.overview = await api("GET", "/api/overview");
  const message = el("div", { "aria-live": "polite", id: "import-message" });
  const file = el("input", { type: "file", id: "import-file", accept: ".jsonl,.json,.ndjson,.bson" });
  const format = el("select", { id: "import-format" }, el("option", { value: "jsonl", text: "JSON lines" }), el("option", { value: "bson", text: "BSON (mongodump)" }));
  file.addEventListener("change", () => { if (file.files[0] && /\.bson$/i.test(file.files[0].name)) format.value = "bson"; });
  const importForm = el("form", { class: "toolbar", onsubmit: async (e) => {
    e.preventDefault();
    if (!file.files[0]) { message.replaceChildren(errorBox(new Error("choose a file first."))); return; }
    message.replaceChildren(el("p", { class: "muted", text: "Importing…" }));
    try {
      const r = await api("POST", `${collectionUrl(name)}/import?format=${format.value}`, file.files[0], true);
      message.replaceChildren(el("div", { class: "ok", role: "status", text: `imported ${number(r.imported)} document(s) into '${name}'` }));
      await loadSidebar();
      const info = state.collections.find((c) => c.name === name);
      if (info) document.getElementById("collection-count").textContent = `${number(info.count)} documents`;
    } catch (error) { message.replaceChildren(errorBox(error)); }
  } }, file, format, el("button", { class: "primary", id: "import-button", type: "submit" }, "Import"));
  show(...collectionHeader(name, "transfer"),
    el("h2", { text: "Export" }),
    el("p", { class: "muted", text: "The same files as 'blite export': canonical Extended JSON lines, or standard BSON that mongorestore reads." }),
    el("div", { class: "toolbar" },
      el("a", { class: "button", id: "export-jsonl", href: `${collectionUrl(name)}/export?format=jsonl`, download: `${name}.jsonl`, text: "Download JSON lines" }),
      el("a", { class: "button", id: "export-bson", href: `${collectionUrl(name)}/export?format=bson`, download: `${name}.bson`, text: "Download BSON" })),
    state.overview.readOnly ? null : el("h2", { text: "Import" }),
    state.overview.readOnly ? null : el("p", { class: "muted", text: "One transaction, as 'blite import': a bad line or a duplicate _id imports nothing." }),
    state.overview.readOnly ? null : importForm,
    message);
}

// ---- start ----------------------------------------------------------------------------------

document.addEventListener("keydown", (e) => {
  const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName);
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "]" && pageKeys.next && !pageKeys.next.disabled) pageKeys.next.click();
  else if (e.key === "[" && pageKeys.previous && !pageKeys.previous.disabled) pageKeys.previous.click();
  else if (e.key === "/") {
    const { parts } = parseRoute();
    if (parts[0] === "c") { e.preventDefault(); go(`#/c/${enc(parts[1])}/query`); }
  }
});

window.addEventListener("hashchange", () => { pageKeys = {}; route(); });

(async () => {
  try {
    state.overview = await api("GET", "/api/overview");
    document.getElementById("database-name").textContent = state.overview.path;
    document.title = `BLite Studio: ${state.overview.path.split(/[\\/]/).pop()}`;
    if (state.overview.readOnly) {
      const banner = document.getElementById("banner");
      banner.textContent = "Read-only: this studio can look but not change anything.";
      banner.hidden = false;
    }
    await loadSidebar();
    await route();
  } catch (error) {
    show(errorBox(error));
  }
})();

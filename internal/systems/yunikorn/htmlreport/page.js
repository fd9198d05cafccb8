// aclint access report. Every answer walks the queue tree the way
// YuniKorn's check does: from the queue up to root, each level's submitacl
// then adminacl for submit (adminacl alone for admin), the first entry
// that lets the request in decides. The grants of each level come from
// aclint, with the entries YuniKorn drops already left out.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const Q = D.queues, P = D.principals;
  const PAGE = 200; // rows a list shows before "show more"
  const userRE = new RegExp(D.userPattern);

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "cls") e.className = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    for (const k of kids) if (k != null) e.append(k);
    return e;
  }
  function partitionOf(qi) { while (Q[qi].p >= 0) qi = Q[qi].p; return D.partitions.find(p => p.root === qi); }
  function who(w) { return w < 0 ? "everyone (*)" : (P[w].k === "u" ? "user " : "group ") + P[w].n; }
  function describe(g, qi) {
    const what = g.w < 0 ? 'wildcard "*"' : (P[g.w].k === "u" ? "user " : "group ") + JSON.stringify(P[g.w].n);
    return Q[qi].path + " " + (g.a ? "adminacl" : "submitacl") + ", " + what + " at " + g.p;
  }

  // decide answers one request: user (null for "a member of the groups"),
  // groups as the request carries them. It returns the deciding grant and
  // the queue of its level, or null.
  function decide(qi, user, groups, admin) {
    for (let q = qi; q >= 0; q = Q[q].p) {
      const gs = Q[q].g || [];
      for (const field of admin ? [true] : [false, true]) {
        const acl = gs.filter(g => !!g.a === field);
        let m = acl.find(g => g.w < 0);
        if (!m && user !== null) m = acl.find(g => g.w >= 0 && P[g.w].k === "u" && P[g.w].n === user);
        for (let i = 0; !m && i < groups.length; i++) m = acl.find(g => g.w >= 0 && P[g.w].k === "g" && P[g.w].n === groups[i]);
        if (m) return { g: m, q: q };
      }
    }
    return null;
  }

  // ---- the tree ----
  let selected = null;
  const nodes = new Map(); // queue index -> its li, once rendered
  function badges(q) {
    const out = [];
    if (q.s) out.push(el("span", { cls: "badge s", title: "submitacl " + JSON.stringify(q.s.raw), text: "submit" }));
    if (q.a) out.push(el("span", { cls: "badge a", title: "adminacl " + JSON.stringify(q.a.raw), text: "admin" }));
    if (q.d) out.push(el("span", { cls: "badge drop", title: "entries YuniKorn drops", text: q.d.length + " dropped" }));
    if (q.f) {
      const worst = q.f.some(i => D.findings[i].sev === "error") ? "error" : "warning";
      out.push(el("span", { cls: "badge " + worst, text: q.f.length + (q.f.length === 1 ? " finding" : " findings") }));
    }
    return out;
  }
  function node(qi) {
    const q = Q[qi];
    const li = el("li", { "data-queue": q.path });
    const kids = q.c || [];
    const t = el("span", { cls: "toggle", text: kids.length ? "▸" : "" });
    const name = el("span", { cls: "qname", text: q.n, onclick: () => show(qi) });
    li.append(t, name, ...badges(q));
    if (kids.length) {
      t.title = kids.length + " queues below";
      t.addEventListener("click", () => toggle(qi));
    }
    nodes.set(qi, li);
    return li;
  }
  function toggle(qi, open) {
    const li = nodes.get(qi);
    let ul = li.querySelector(":scope > ul");
    if (ul && open !== true) { ul.remove(); li.firstChild.textContent = "▸"; return; }
    if (ul) return;
    ul = el("ul");
    const kids = Q[qi].c || [];
    const more = (from) => {
      for (const c of kids.slice(from, from + PAGE)) ul.append(node(c));
      if (from + PAGE < kids.length) {
        const b = el("button", { text: "show " + Math.min(PAGE, kids.length - from - PAGE) + " more of " + (kids.length - from - PAGE),
          onclick: () => { b.parentNode.remove(); more(from + PAGE); } });
        ul.append(el("li", null, b));
      }
    };
    more(0);
    li.append(ul);
    li.firstChild.textContent = "▾";
  }
  // reveal opens the tree down to a queue and selects it
  function reveal(qi) {
    const chain = [];
    for (let q = qi; q >= 0; q = Q[q].p) chain.unshift(q);
    for (const q of chain.slice(0, -1)) {
      if (!nodes.has(q)) return show(qi);
      toggle(q, true);
      const kids = Q[q].c, at = kids.indexOf(chain[chain.indexOf(q) + 1]);
      // a child past the first page is rendered on its own
      if (!nodes.has(kids[at])) nodes.get(q).querySelector(":scope > ul").append(node(kids[at]));
    }
    show(qi);
    nodes.get(qi).scrollIntoView({ block: "nearest" });
  }

  // ---- limits: YuniKorn's user and group manager as aclint exports it ----
  // limitsFor walks the queue's path as the manager does: a named user's
  // tracker node where it exists (no limit there keeps the wildcard out),
  // the wildcard user limit of the path from the first missing node on; the
  // one tracked group (from the leaf up: that level's group limits in
  // config order, then its wildcard group limit); the queues' own limits.
  function limitsFor(qi, user, groups) {
    const L = D.limits;
    const path = [];
    for (let q = qi; q >= 0; q = Q[q].p) path.unshift(q);
    const levels = path.map(q => Q[q].path);
    const figs = [];
    const ut = L ? L.users[user] : null;
    let fresh = !ut;
    let tracked = "";
    if (L && groups.length) {
      search: for (let i = levels.length - 1; i >= 0; i--) {
        for (const c of L.configured[levels[i]] || []) if (groups.includes(c)) { tracked = c; break search; }
        if (L.groupWild[levels[i]]) { tracked = "*"; break; }
      }
    }
    const gt = L && tracked ? L.groups[tracked] : null;
    let gfresh = !gt;
    levels.forEach((p, i) => {
      if (L) {
        if (!fresh && !(p in ut)) fresh = true;
        figs.push(fresh ? L.userWild[p] : ut[p]);
        if (!gfresh && !(p in gt)) gfresh = true;
        if (!gfresh) figs.push(gt[p]);
      }
      figs.push(Q[path[i]].own);
    });
    let apps = 0, res = null;
    for (const f of figs) {
      if (!f) continue;
      if (f.a && (!apps || f.a < apps)) apps = f.a;
      for (const k in f.r || {}) {
        if (!res) res = {};
        if (!(k in res) || f.r[k] < res[k]) res[k] = f.r[k];
      }
    }
    const rs = res ? Object.keys(res).sort().map(k => k + " " + res[k]).join(", ") : "none";
    return "apps " + (apps || "none") + "; resources " + rs + "; group " + (tracked || "none");
  }

  // ---- the queue panel ----
  function aclRow(label, acl) {
    if (!acl) return el("tr", null, el("th", { text: label }), el("td", { cls: "muted", text: "not set" }));
    return el("tr", null, el("th", { text: label }),
      el("td", null, el("span", { cls: "acl mono", text: JSON.stringify(acl.raw) }), " ", el("span", { cls: "pos", text: acl.pos }),
        acl.err ? el("div", { cls: "sev-error", text: "YuniKorn cannot use it: " + acl.err }) : null));
  }
  function show(qi) {
    const q = Q[qi];
    if (selected !== null && nodes.has(selected)) nodes.get(selected).querySelector(".qname").classList.remove("sel");
    selected = qi;
    if (nodes.has(qi)) nodes.get(qi).querySelector(".qname").classList.add("sel");
    const box = document.getElementById("queue");
    box.replaceChildren(...[el("h2", { text: q.path }),
      el("div", { cls: "muted" }, (q.leaf ? "leaf queue" : "parent queue") + " in partition " + partitionOf(qi).name + " ", el("span", { cls: "pos", text: q.pos || "" })),
      q.note ? el("p", { cls: "muted", text: q.note }) : null,
      el("h3", { text: "Own ACLs" }), el("table", null, aclRow("submitacl", q.s), aclRow("adminacl", q.a))].filter(x => x !== null));
    if (q.d) {
      const t = el("table", null, el("tr", null, el("th", { text: "ACL" }), el("th", { text: "entry" }), el("th", { text: "why YuniKorn drops it" })));
      for (const x of q.d) t.append(el("tr", null, el("td", { text: x.acl }), el("td", null, el("code", { text: JSON.stringify(x.n) }), " ", el("span", { cls: "pos", text: x.p })), el("td", { text: x.why })));
      box.append(el("h3", { text: "Dropped entries" }), t);
    }
    if (q.own || q.lim || q.tpl) {
      const t = el("table", null, el("tr", null, el("th", { text: "limit" }), el("th", { text: "for" }), el("th", { text: "max applications" }), el("th", { text: "max resources" })));
      const res = (r) => r ? Object.keys(r).sort().map(k => k + " " + quantity(k, r[k])).join(", ") : "-";
      if (q.own) t.append(el("tr", null, el("td", null, "the queue's own ", el("span", { cls: "pos", text: q.own.p })), el("td", { text: "every application in it" }), el("td", { text: q.own.a || "-" }), el("td", { text: res(q.own.r) })));
      for (const l of q.lim || []) {
        const who = (l.u || []).map(u => "user " + u).concat((l.g || []).map(g => "group " + g)).join(", ");
        t.append(el("tr", null, el("td", null, JSON.stringify(l.n) + " ", el("span", { cls: "pos", text: l.p })), el("td", { text: who }), el("td", { text: l.a || "-" }), el("td", { text: res(l.r) })));
      }
      if (q.tpl) t.append(el("tr", { cls: "tpl" }, el("td", null, "the childtemplate ", el("span", { cls: "pos", text: q.tpl.p })), el("td", { text: "every queue created under it" }), el("td", { text: q.tpl.a || "-" }), el("td", { text: res(q.tpl.r) })));
      box.append(el("h3", { text: "Limits (search a user for what applies to them: aclint limits explains each figure)" }), t);
    }
    if (q.f) box.append(el("h3", { text: "Findings" }), findingsTable(q.f));
    box.append(el("h3", { text: "Effective access (who can reach this queue)" }), whoCanTable(qi));
  }
  // quantity writes a resource value as queues.yaml would (the shortest exact
  // suffix), next to YuniKorn's internal figure, as aclint limits does:
  // memory 16Gi (17179869184 bytes), vcore 4 (4000 millicores).
  function quantity(name, v) {
    const qty = (n) => {
      if (n === 0) return "0";
      const bin = [["Ei", 2 ** 60], ["Pi", 2 ** 50], ["Ti", 2 ** 40], ["Gi", 2 ** 30], ["Mi", 2 ** 20], ["Ki", 2 ** 10]];
      const dec = [["E", 1e18], ["P", 1e15], ["T", 1e12], ["G", 1e9], ["M", 1e6], ["k", 1e3]];
      for (const [s, m] of bin.concat(dec)) if (Number.isSafeInteger(n) && n % m === 0) return n / m + s;
      return String(n);
    };
    if (name === "vcore") return (v % 1000 === 0 ? String(v / 1000) : v + "m") + " (" + v + " millicores)";
    const q = qty(v);
    if (name === "memory" || name === "ephemeral-storage") return q === String(v) ? v + " bytes" : q + " (" + v + " bytes)";
    return q === String(v) ? q : q + " (" + v + ")";
  }
  function findingsTable(list) {
    const t = el("table", null, el("tr", null, el("th", { text: "severity" }), el("th", { text: "rule" }), el("th", { text: "message" }), el("th", { text: "at" })));
    for (const i of list) {
      const f = D.findings[i];
      t.append(el("tr", null, el("td", { cls: "sev-" + f.sev, text: f.sev }), el("td", null, el("code", { text: f.rule })), el("td", { text: f.msg }), el("td", { cls: "pos", text: f.pos })));
    }
    return t;
  }

  // ---- who can reach a queue ----
  function whoCan(qi) {
    const rows = [];
    const ask = (w) => {
      const user = w >= 0 && P[w].k === "u" ? P[w].n : null;
      const groups = w >= 0 && P[w].k === "g" ? [P[w].n] : [];
      if (w >= 0 && user === null && groups.length === 0) return;
      let s, a;
      if (w < 0) { // everyone: only a wildcard lets in someone no ACL names
        s = decide(qi, "\u0000", [], false); a = decide(qi, "\u0000", [], true);
        if (s && s.g.w >= 0) s = null;
        if (a && a.g.w >= 0) a = null;
      } else {
        s = decide(qi, user, groups, false); a = decide(qi, user, groups, true);
      }
      if (s || a) rows.push({ w: w, s: s, a: a });
    };
    ask(-1);
    for (let w = 0; w < P.length; w++) ask(w);
    return rows;
  }
  function whoCanTable(qi) {
    const rows = whoCan(qi);
    const wrap = el("div");
    if (!rows.length) { wrap.append(el("p", { cls: "answer bad", text: "Nobody: no ACL from " + Q[qi].path + " up to root lets anyone in." })); return wrap; }
    const t = el("table", { cls: "whocan" }, el("tr", null, el("th", { text: "who" }), el("th", { text: "submit" }), el("th", { text: "admin" })));
    const add = (from) => {
      for (const r of rows.slice(from, from + PAGE)) {
        const tr = el("tr", { "data-principal": r.w < 0 ? "everyone" : (P[r.w].k === "u" ? "user:" : "group:") + P[r.w].n,
          "data-submit": r.s ? describe(r.s.g, r.s.q) : "", "data-admin": r.a ? describe(r.a.g, r.a.q) : "" });
        tr.append(el("td", { text: who(r.w) }), el("td", { text: r.s ? describe(r.s.g, r.s.q) : "-" }), el("td", { text: r.a ? describe(r.a.g, r.a.q) : "-" }));
        t.append(tr);
      }
      if (from + PAGE < rows.length) {
        const b = el("button", { text: "show more (" + (rows.length - from - PAGE) + " left)", onclick: () => { b.remove(); add(from + PAGE); } });
        wrap.append(b);
      }
    };
    wrap.append(el("p", { cls: "muted", text: rows.length + " with access. Users are asked with no groups, groups as the only group of a user no ACL names." }), t);
    add(0);
    return wrap;
  }

  // ---- the search ----
  function findQueue(path, partition) {
    // YuniKorn stores queue names in lower case
    const want = path.toLowerCase();
    for (let i = 0; i < Q.length; i++) {
      if (Q[i].path.toLowerCase() === want && (!partition || partitionOf(i).name === partition)) return i;
    }
    return -1;
  }
  function search(kind, name, groupsText, partition) {
    const out = document.getElementById("results");
    out.replaceChildren();
    out.setAttribute("data-kind", kind);
    location.hash = new URLSearchParams(kind === "user" ? { user: name, groups: groupsText } : kind === "group" ? { group: name } : { queue: name, partition: partition || "" }).toString();
    if (kind === "queue") {
      const qi = findQueue(name, partition);
      if (qi < 0) { out.append(el("p", { cls: "answer bad", text: "No queue " + name + (partition ? " in partition " + partition : "") + ": the page knows only the queues the config writes." })); return; }
      reveal(qi);
      out.append(el("h3", { text: "Who can reach " + Q[qi].path }), whoCanTable(qi));
      return;
    }
    let groups = kind === "group" ? [name] : groupsText.split(",").map(s => s.trim()).filter(s => s);
    const user = kind === "user" ? name : null;
    const head = el("div", { cls: "answer" });
    const bad = (text) => { head.className = "answer bad"; head.textContent = text; out.append(head); };
    if (kind === "user") {
      if (name === "") return bad("YuniKorn rejects a request with an empty user.");
      if (groups.length) {
        if (!userRE.test(name)) return bad("YuniKorn would reject the application: invalid username " + JSON.stringify(name) + " does not match " + D.userPattern);
        head.textContent = "user " + name + " with groups [" + groups.join(", ") + "], as the request carries them (as aclint check --groups answers)";
      } else if (D.resolver === "") {
        // no resolver: YuniKorn gives the user one group, named like the user
        groups = [name];
        head.textContent = "user " + name + " with no groups given: the config sets no usergroupresolver, so YuniKorn gives the user one group, [" + name + "] (as aclint check answers)";
      } else {
        // the page cannot ask an os, ldap or test resolver: no answer
        return bad("No groups given, and YuniKorn would ask the " + D.resolver + " resolver for " + name + "'s groups, which this page cannot do: give the groups the resolver returns (aclint check " + D.resolver + " resolves them).");
      }
    } else {
      head.textContent = "a member of group " + name + " whose user name no ACL names";
    }
    out.append(head);
    const rows = [];
    for (let qi = 0; qi < Q.length; qi++) {
      const s = decide(qi, user, groups, false), a = decide(qi, user, groups, true);
      if (s || a) rows.push({ qi: qi, s: s, a: a });
    }
    if (!rows.length) { out.append(el("p", { cls: "answer bad", text: "No queue: nothing lets this request in." })); return; }
    const showLimits = user !== null;
    const t = el("table", { cls: "reach" }, el("tr", null, el("th", { text: "queue" }), el("th", { text: "submit" }), el("th", { text: "admin" }), showLimits ? el("th", { text: "limits on an application here" }) : null));
    out.append(el("p", { cls: "muted", text: rows.length + " of " + Q.length + " queues" }), t);
    const add = (from) => {
      for (const r of rows.slice(from, from + PAGE)) {
        const part = partitionOf(r.qi).name;
        const link = el("span", { cls: "qname", text: Q[r.qi].path, onclick: () => reveal(r.qi) });
        const lim = showLimits && r.s && Q[r.qi].leaf ? limitsFor(r.qi, user, groups) : "";
        const attrs = { "data-queue": Q[r.qi].path, "data-partition": part, "data-submit": r.s ? describe(r.s.g, r.s.q) : "", "data-admin": r.a ? describe(r.a.g, r.a.q) : "" };
        if (lim) attrs["data-limits"] = lim;
        t.append(el("tr", attrs,
          el("td", null, link, D.partitions.length > 1 ? el("span", { cls: "muted", text: " (" + part + ")" }) : null),
          el("td", { text: r.s ? describe(r.s.g, r.s.q) : "-" }), el("td", { text: r.a ? describe(r.a.g, r.a.q) : "-" }), showLimits ? el("td", { text: lim || "-" }) : null));
      }
      if (from + PAGE < rows.length) {
        const b = el("button", { text: "show more (" + (rows.length - from - PAGE) + " left)", onclick: () => { b.remove(); add(from + PAGE); } });
        out.append(b);
      }
    };
    add(0);
  }

  // ---- the heat map: queues (rows, tree order) by principals (columns) ----
  function heat() {
    const cols = P.length + 1; // everyone first
    const maxW = 960, maxH = 1200;
    const binC = Math.max(1, Math.ceil(cols / maxW)), binR = Math.max(1, Math.ceil(Q.length / maxH));
    const W = Math.ceil(cols / binC), H = Math.ceil(Q.length / binR);
    const cw = Math.max(1, Math.min(24, Math.floor(maxW / W))), ch = Math.max(1, Math.min(18, Math.floor(maxH / H)));
    const cv = document.getElementById("heat");
    // margins for the axis labels: queue paths on the left, subjects on top
    const LM = 190, TM = 110, FONT = "11px sans-serif";
    // (and room on the right for the last subjects' slanted names)
    cv.width = LM + W * cw + 70; cv.height = TM + H * ch;
    const sum = new Float32Array(W * H);
    const rows = new Map(); // queue index -> its row, while its subtree is walked
    for (let qi = 0; qi < Q.length; qi++) {
      const q = Q[qi];
      const row = q.p >= 0 ? rows.get(q.p).slice() : new Uint8Array(cols);
      for (const g of q.g || []) {
        const v = g.a ? 2 : 1;
        if (g.w < 0) { for (let c = 0; c < cols; c++) row[c] = Math.max(row[c], v); } else row[g.w + 1] = Math.max(row[g.w + 1], v);
      }
      if (q.c) rows.set(qi, row);
      if (q.p >= 0 && Q[q.p].c[Q[q.p].c.length - 1] === qi) rows.delete(q.p);
      const r = Math.floor(qi / binR);
      for (let c = 0; c < cols; c++) if (row[c]) sum[r * W + Math.floor(c / binC)] += row[c];
    }
    const ctx = cv.getContext("2d");
    ctx.fillStyle = "#ffffff"; ctx.fillRect(0, 0, cv.width, cv.height);
    ctx.fillStyle = "#f4f6f9"; ctx.fillRect(LM, TM, W * cw, H * ch);
    for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) {
      const v = sum[r * W + c] / (2 * binR * binC);
      if (!v) continue;
      const l = Math.round(88 - 60 * v);
      ctx.fillStyle = "hsl(214, 60%, " + l + "%)";
      ctx.fillRect(LM + c * cw, TM + r * ch, cw, ch);
    }
    // axis labels: as many as fit without overlapping, each the first
    // queue or subject of its bin; the names are only ever canvas text
    const fit = (s, px) => { let t = s; while (t.length > 1 && ctx.measureText(t).width > px) t = t.slice(0, -2); return t === s ? s : t + "…"; };
    ctx.font = FONT; ctx.fillStyle = "#333"; ctx.textBaseline = "middle";
    const rowLabels = [], colLabels = [];
    const rowStep = Math.max(1, Math.ceil(13 / ch)), colStep = Math.max(1, Math.ceil(13 / cw));
    ctx.textAlign = "right";
    for (let r = 0; r < H; r += rowStep) {
      const name = Q[Math.min(Q.length - 1, r * binR)].path;
      rowLabels.push(name);
      ctx.fillText(fit(name, LM - 8), LM - 4, TM + r * ch + ch / 2);
    }
    ctx.textAlign = "left";
    for (let c = 0; c < W; c += colStep) {
      const name = who(Math.min(cols - 1, c * binC) - 1);
      colLabels.push(name);
      ctx.save(); ctx.translate(LM + c * cw + cw / 2, TM - 4); ctx.rotate(-Math.PI / 3);
      ctx.fillText(fit(name, TM * 1.1), 0, 0); ctx.restore();
    }
    ctx.font = "bold " + FONT; ctx.textAlign = "left";
    ctx.fillText("queues (tree order) ↓   subjects →", 4, 12);
    // what the axes show, for screen readers and tests
    cv.setAttribute("aria-label", "heat map of access: rows are queues in tree order, columns are everyone and every user and group an ACL names; lighter is submit, darker is admin");
    cv.dataset.rows = JSON.stringify(rowLabels);
    cv.dataset.cols = JSON.stringify(colLabels);
    document.getElementById("heatmeta").textContent = Q.length + " queues × " + cols + " columns (everyone, then every user and group an ACL names)" +
      (binR > 1 || binC > 1 ? "; each cell averages " + binR + " × " + binC : "");
    cv.addEventListener("mousemove", (e) => {
      const b = cv.getBoundingClientRect();
      const x = (e.clientX - b.left) * cv.width / b.width - LM, y = (e.clientY - b.top) * cv.height / b.height - TM;
      if (x < 0 || y < 0) return;
      const c = Math.floor(x / cw), r = Math.floor(y / ch);
      const qi = Math.min(Q.length - 1, r * binR), pc = Math.min(cols - 1, c * binC);
      const w = pc - 1;
      const user = w >= 0 && P[w].k === "u" ? P[w].n : (w < 0 ? "\u0000" : null);
      const groups = w >= 0 && P[w].k === "g" ? [P[w].n] : [];
      let s = decide(qi, user, groups, false), a = decide(qi, user, groups, true);
      if (w < 0) { if (s && s.g.w >= 0) s = null; if (a && a.g.w >= 0) a = null; }
      document.getElementById("heattip").textContent = Q[qi].path + (binR > 1 ? " (and " + (binR - 1) + " more)" : "") + " × " + who(w) +
        ": " + (a ? "admin" : s ? "submit" : "no access");
    });
  }

  // ---- the page ----
  function init() {
    const tree = document.getElementById("tree");
    for (const part of D.partitions) {
      const sec = el("div", { cls: "partition", "data-partition": part.name });
      sec.append(el("h2", { text: "Partition " + part.name }),
        el("div", { cls: "muted", text: "user group resolver: " + (part.resolver || "none set") }));
      const rules = el("table", null, el("tr", null, el("th", { text: "#" }), el("th", { text: "placement rule" }), el("th", { text: "create" }), el("th", { text: "filter" }), el("th", { text: "at" })));
      part.rules.forEach((r, i) => rules.append(el("tr", null, el("td", { text: String(i + 1) }), el("td", { text: r.d }), el("td", { text: r.c ? "yes" : "no" }),
        el("td", { text: r.f || "" }), el("td", { cls: r.p ? "pos" : "muted", text: r.p || r.i || "" }))));
      sec.append(el("h3", { text: "Placement rules" }));
      if (part.rulesError) sec.append(el("p", { cls: "sev-error", text: "YuniKorn cannot build these rules: " + part.rulesError }));
      sec.append(rules, el("h3", { text: "Queues" }));
      const ul = el("ul", { cls: "tree" });
      ul.append(node(part.root));
      sec.append(ul);
      if (part.findings.length) sec.append(el("h3", { text: "Findings outside a queue" }), findingsTable(part.findings));
      tree.append(sec);
      toggle(part.root, true);
    }
    const all = D.findings.map((_, i) => i);
    document.getElementById("findings").append(all.length ? findingsTable(all) : el("p", { cls: "muted", text: "No findings." }));
    const kind = document.getElementById("kind"), name = document.getElementById("name"), groups = document.getElementById("groups"), part = document.getElementById("partition");
    for (const p of D.partitions) part.append(el("option", { value: p.name, text: p.name }));
    const sync = () => { groups.hidden = kind.value !== "user"; part.hidden = kind.value !== "queue" || D.partitions.length < 2; };
    kind.addEventListener("change", sync);
    document.getElementById("ask").addEventListener("submit", (e) => { e.preventDefault(); search(kind.value, name.value.trim(), groups.value, part.value); });
    // a search can be linked: #user=alice&groups=a,b  #group=etl  #queue=root.a&partition=default
    const h = new URLSearchParams(location.hash.slice(1));
    for (const k of ["user", "group", "queue"]) {
      if (h.has(k)) {
        kind.value = k; name.value = h.get(k); groups.value = h.get("groups") || "";
        if (h.get("partition")) part.value = h.get("partition");
        sync();
        search(k, name.value.trim(), groups.value, h.get("partition") || "");
        break;
      }
    }
    sync();
    heat();
    if (selected === null && D.partitions.length) show(D.partitions[0].root);
    document.body.setAttribute("data-ready", "true");
  }
  init();
})();

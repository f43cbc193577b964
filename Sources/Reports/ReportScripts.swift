/// The report pages' scripts and styles, inline so a page works from a downloaded folder with no
/// network. Pages build their DOM from the embedded JSON with `textContent`, never from markup
/// strings, so hostile transcripts stay text.
enum ReportScripts {
    static let style = """
        body{font-family:sans-serif;margin:2em;max-width:75em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}
        th{background:#f4f4f4}td.l,th.l{text-align:left}nav ul{list-style:none;padding:0;display:flex;gap:1.5em}nav a[aria-current]{font-weight:bold}
        a:focus,button:focus,select:focus,input:focus,[tabindex]:focus{outline:2px solid #1f77b4}
        form.filters{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0}
        table.alignment{font-family:monospace;margin:0 0 .5em}table.alignment td,table.alignment th{border:0;padding:0 .4em 0 0;text-align:left;background:none}
        table.alignment td.s{color:#b35900;font-weight:bold}table.alignment td.d{color:#c00;font-weight:bold}table.alignment td.i{color:#0055aa;font-weight:bold}
        .scroll{overflow-x:auto}.side{display:grid;grid-template-columns:repeat(auto-fit,minmax(28em,1fr));gap:2em}
        svg text{font-size:11px}.muted{color:#666}.error{color:#c00}
        """

    /// Helpers both pages use: element builders, the sclite-style alignment and the timeline.
    static let common = #"""
        "use strict";
        const SVG_NS = "http://www.w3.org/2000/svg";
        function build(node, attributes, children) {
          for (const [name, value] of Object.entries(attributes || {})) if (value !== null && value !== undefined) node.setAttribute(name, value);
          for (const child of children) if (child !== null && child !== undefined) node.append(child);
          return node;
        }
        function el(tag, attributes, ...children) { return build(document.createElement(tag), attributes, children); }
        function svg(tag, attributes, ...children) { return build(document.createElementNS(SVG_NS, tag), attributes, children); }
        function errors(run) { return run.s + run.d + run.i; }
        function wer(run) { return run.n ? errors(run) / run.n : (run.i ? Infinity : 0); }
        function percent(value) { return isFinite(value) ? (100 * value).toFixed(1) + "%" : "∞"; }
        function seconds(value) { return value === undefined || value === null ? "–" : value.toFixed(2) + " s"; }
        const data = JSON.parse(document.getElementById("data").textContent);
        const runsOf = data.utterances.map(() => []);
        data.runs.forEach((run, index) => runsOf[run.u].push(index));

        // REF, HYP and Eval rows as sclite's pralign prints them: errors in upper case, a gap as
        // asterisks, S, D or I under each error (the letters are the text alternative to colour).
        function alignmentTable(run, label) {
          const table = el("table", { class: "alignment", "aria-label": label });
          const rows = ["REF", "HYP", "Eval"].map((name) => el("tr", {}, el("th", { scope: "row" }, name + ":")));
          for (const step of run.align) {
            const kind = step[0];
            const ref = kind === "i" ? "*".repeat(step[1].length) : step[1];
            const hyp = kind === "d" ? "*".repeat(step[1].length) : kind === "s" ? step[2] : step[1];
            const letter = { c: "", s: "S", d: "D", i: "I" }[kind];
            rows[0].append(el("td", { class: kind }, ref));
            rows[1].append(el("td", { class: kind }, hyp));
            rows[2].append(el("td", { class: kind }, letter));
          }
          if (!run.align.length) rows[0].append(el("td", { class: "muted" }, "(empty reference and hypothesis)"));
          table.append(...rows);
          return el("div", { class: "scroll" }, el("p", { class: "muted" }, label), table);
        }

        function audioPlayer(utterance) {
          const box = el("p", { class: "audio" });
          if (utterance.audio) {
            box.append(el("audio", { controls: "", preload: "none", src: utterance.audio, "aria-label": "audio of " + utterance.id }));
            if (!utterance.audio.startsWith("data:")) box.append(" ", el("a", { href: utterance.audio }, "audio file"));
          }
          if (utterance.audioNote) box.append(" ", el("span", { class: "muted" }, utterance.audioNote));
          return box;
        }

        function niceStep(span) {
          for (const step of [0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300]) if (span / step <= 10) return step;
          return 600;
        }

        // The reference words' spans against the moments each result appeared (a dot at its time:
        // hollow for a partial, filled for a final) and the audio it covers (the grey bar), one lane
        // per run: revisions and latency are seen, not computed.
        function timeline(utterance, lanes) {
          // The right margin keeps room for the text of a result that appears near the end.
          const width = 1000, left = 200, right = 240, row = 16, cap = 40;
          let end = utterance.seconds;
          for (const word of utterance.words) end = Math.max(end, word[1]);
          for (const lane of lanes) for (const event of lane.run.events) end = Math.max(end, event[0], event[3]);
          end = Math.max(0.5, end * 1.03);
          const x = (time) => left + (width - left - right) * time / end;
          let rows = 1;
          for (const lane of lanes) rows += 1 + Math.max(1, Math.min(cap, lane.run.events.length)) + (lane.run.events.length > cap ? 1 : 0);
          const height = 40 + row * rows + 8;
          const chart = svg("svg", { class: "timeline", width: width, height: height, role: "img",
            "aria-label": "timeline of " + utterance.id + ": reference word spans and when each result appeared" });
          chart.append(svg("title", {}, "Timeline of " + utterance.id + " (seconds from the start of the audio)"));
          chart.append(svg("text", { x: left, y: 12 }, "seconds from the start of the audio (dot: when a result appeared; hollow partial, filled final; bar: audio it covers)"));
          const step = niceStep(end);
          for (let tick = 0; tick <= end + 1e-9; tick += step) {
            chart.append(svg("line", { x1: x(tick), x2: x(tick), y1: 38, y2: height - 4, stroke: "#eee" }));
            chart.append(svg("text", { x: x(tick), y: 34, "text-anchor": "middle" }, String(Math.round(tick * 100) / 100)));
          }
          chart.append(svg("line", { x1: x(utterance.seconds), x2: x(utterance.seconds), y1: 24, y2: height - 4, stroke: "#999", "stroke-dasharray": "4,3" },
            svg("title", {}, "end of audio at " + seconds(utterance.seconds))));
          let y = 40;
          chart.append(svg("text", { x: left - 6, y: y + 11, "text-anchor": "end", "font-weight": "bold" }, "reference"));
          if (!utterance.words.length) chart.append(svg("text", { x: left, y: y + 11, class: "muted" }, "no word times in the manifest"));
          for (const word of utterance.words) {
            chart.append(svg("rect", { x: x(word[0]), y: y + 1, width: Math.max(1, x(word[1]) - x(word[0])), height: 13, fill: "#d8e6f3" },
              svg("title", {}, word[2] + ": " + seconds(word[0]) + "–" + seconds(word[1]))));
            chart.append(svg("text", { x: x(word[0]) + 2, y: y + 11 }, word[2]));
          }
          for (const lane of lanes) {
            y += row;
            chart.append(svg("text", { x: left - 6, y: y + 11, "text-anchor": "end", "font-weight": "bold", fill: lane.color || "#000" }, lane.label));
            const events = lane.run.events;
            if (!events.length) {
              y += row;
              chart.append(svg("text", { x: left, y: y + 11, class: "muted" }, lane.run.error ? "failed: " + lane.run.error : "no results"));
            }
            for (const event of events.slice(0, cap)) {
              y += row;
              const kind = event[1] ? "final" : "partial";
              chart.append(svg("text", { x: left - 6, y: y + 11, "text-anchor": "end" }, kind + " at " + seconds(event[0])));
              chart.append(svg("line", { x1: x(event[2]), x2: Math.max(x(event[2]) + 1, x(event[3])), y1: y + 7, y2: y + 7, stroke: "#bbb", "stroke-width": 4 }));
              chart.append(svg("circle", { cx: x(event[0]), cy: y + 7, r: 4, fill: event[1] ? "#333" : "#fff", stroke: "#333" },
                svg("title", {}, kind + " at " + seconds(event[0]) + ": " + (event[4] || "(no words)"))));
              chart.append(svg("text", { x: x(event[0]) + 7, y: y + 11 }, event[4] || "(no words)"));
            }
            if (events.length > cap) { y += row; chart.append(svg("text", { x: left, y: y + 11, class: "muted" }, "… " + (events.length - cap) + " more results")); }
          }
          return el("div", { class: "scroll" }, chart);
        }

        function runSummary(run) {
          const parts = [errors(run) + " errors (S " + run.s + ", D " + run.d + ", I " + run.i + ") in " + run.n + " words, WER " + percent(wer(run)) + (run.sd ? " † speaker-dependent (the engine enrolled this voice)" : "")];
          parts.push(data.partialEngines.includes(data.engines[run.e]) ? "first partial " + seconds(run.firstPartial) : "final results only");
          parts.push("final " + seconds(run.final), "compute " + seconds(run.compute));
          return el("p", {}, parts.join(" · "));
        }

        // An utterance view's start: the way back, the heading (focused when the view opens), the
        // utterance's facts, reference and audio.
        function utteranceView(utterance) {
          const heading = el("h2", { tabindex: "-1" }, "Utterance " + utterance.id);
          const container = el("div", {}, el("p", {}, el("a", { href: "#" }, "← back to the list")), heading,
            el("p", {}, "tier " + utterance.tier + " · speaker " + utterance.speaker + " · " + seconds(utterance.seconds) + " · manifest " + utterance.manifest),
            el("p", {}, el("strong", {}, "Reference: "), utterance.reference), audioPlayer(utterance));
          return { container: container, heading: heading };
        }

        // Shows the view `render` builds for a fragment `pattern` matches (undefined: no such
        // item), the list otherwise; then records when the page first finished rendering.
        function route(pattern, render) {
          const view = document.getElementById("view"), list = document.getElementById("list");
          function show() {
            const match = pattern.exec(location.hash);
            const opened = match ? render(Number(match[1])) : undefined;
            if (!opened) { view.hidden = true; list.hidden = false; return; }
            view.replaceChildren(opened.container);
            list.hidden = true;
            view.hidden = false;
            opened.heading.focus();
          }
          window.addEventListener("hashchange", show);
          show();
          document.body.dataset.renderMs = String(Math.round(performance.now()));
        }

        // A paginated table: rows() gives the current rows, cells(row) their cells and link.
        function pager(table, status, previous, next, size) {
          let page = 0, rows = [];
          const tbody = table.tBodies[0];
          function draw(cells) {
            const pages = Math.max(1, Math.ceil(rows.length / size));
            page = Math.min(page, pages - 1);
            const slice = rows.slice(page * size, page * size + size);
            tbody.replaceChildren(...slice.map((row) => el("tr", {}, ...cells(row))));
            status.textContent = rows.length ? "rows " + (page * size + 1) + "–" + (page * size + slice.length) + " of " + rows.length + " (page " + (page + 1) + " of " + pages + ")" : "no rows match";
            previous.disabled = page === 0;
            next.disabled = page >= pages - 1;
          }
          let current = () => {};
          previous.addEventListener("click", () => { page -= 1; current(); });
          next.addEventListener("click", () => { page += 1; current(); });
          return (newRows, cells, keepPage) => { rows = newRows; if (!keepPage) page = 0; current = () => draw(cells); current(); };
        }

        function option(value, text) { return el("option", { value: value }, text); }

        // Draws the list now and whenever a filter changes (the form never submits).
        function onFilters(refresh) {
          const form = document.getElementById("filters");
          form.addEventListener("change", refresh);
          form.addEventListener("submit", (event) => event.preventDefault());
          refresh();
        }
        """#

    /// The explorer: every utterance × engine, filtered and sorted, each opening its view.
    static let explorer = #"""
        const engineSelect = document.getElementById("engine"), tierSelect = document.getElementById("tier"), speakerSelect = document.getElementById("speaker");
        engineSelect.append(option("", "all engines"), ...data.engines.map((name, index) => option(String(index), name)));
        const tiers = [...new Set(data.utterances.map((u) => u.tier))].sort(), speakers = [...new Set(data.utterances.map((u) => u.speaker))].sort();
        tierSelect.append(option("", "all tiers"), ...tiers.map((t) => option(t, t)));
        speakerSelect.append(option("", "all speakers"), ...speakers.map((s) => option(s, s)));
        const show = pager(document.getElementById("runs"), document.getElementById("status"), document.getElementById("previous"), document.getElementById("next"), 50);
        function cells(index) {
          const run = data.runs[index], utterance = data.utterances[run.u];
          return [el("td", { class: "l" }, el("a", { href: "#u=" + run.u }, utterance.id)), el("td", { class: "l" }, utterance.tier),
            el("td", { class: "l" }, utterance.speaker), el("td", { class: "l" }, data.engines[run.e]), el("td", {}, String(errors(run))),
            el("td", {}, run.s + " / " + run.d + " / " + run.i), el("td", {}, percent(wer(run)) + (run.sd ? " †" : "")), el("td", { class: "l" }, run.error ? "failed: " + run.error : run.hyp)];
        }
        function refresh() {
          const engine = engineSelect.value, tier = tierSelect.value, speaker = speakerSelect.value;
          const withErrors = document.getElementById("has-errors").checked, differs = document.getElementById("differs").checked;
          const rows = [];
          data.runs.forEach((run, index) => {
            const utterance = data.utterances[run.u];
            if ((engine === "" || run.e === Number(engine)) && (tier === "" || utterance.tier === tier) && (speaker === "" || utterance.speaker === speaker)
              && (!withErrors || errors(run) > 0 || run.error) && (!differs || utterance.differs)) rows.push(index);
          });
          const sort = document.getElementById("sort").value;
          const id = (index) => data.utterances[data.runs[index].u].id;
          const byId = (a, b) => id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : data.runs[a].e - data.runs[b].e;
          if (sort === "errors") rows.sort((a, b) => errors(data.runs[b]) - errors(data.runs[a]) || byId(a, b));
          else if (sort === "wer") rows.sort((a, b) => wer(data.runs[b]) - wer(data.runs[a]) || byId(a, b));
          else rows.sort(byId);
          show(rows, cells);
        }
        onFilters(refresh);
        route(/^#u=(\d+)$/, (index) => {
          const utterance = data.utterances[index];
          if (!utterance) return undefined;
          const opened = utteranceView(utterance);
          const runs = runsOf[index].map((run) => data.runs[run]).sort((a, b) => a.e - b.e);
          opened.container.append(el("h3", {}, "What each engine heard"));
          for (const run of runs) {
            const name = data.engines[run.e];
            opened.container.append(el("h4", {}, name), runSummary(run), alignmentTable(run, name + ": alignment with the reference"));
            if (run.error) opened.container.append(el("p", { class: "error" }, "failed: " + run.error), el("p", {}, "hypothesis: " + run.hyp));
          }
          opened.container.append(el("h3", {}, "Timeline"), timeline(utterance, runs.map((run) => ({ label: data.engines[run.e], run: run }))));
          return opened;
        });
        """#

    /// The regression page: utterances whose errors rose or fell against the baseline, each opening
    /// both runs side by side.
    static let regressions = #"""
        const changes = data.pairs;
        const engineSelect = document.getElementById("engine");
        engineSelect.append(option("", "all engines"), ...data.engines.map((name, index) => option(String(index), name)));
        const show = pager(document.getElementById("runs"), document.getElementById("status"), document.getElementById("previous"), document.getElementById("next"), 50);
        function cells(index) {
          const [base, current] = changes[index].map((r) => data.runs[r]), utterance = data.utterances[current.u];
          const change = errors(current) - errors(base);
          return [el("td", { class: "l" }, el("a", { href: "#p=" + index }, utterance.id)), el("td", { class: "l" }, utterance.tier),
            el("td", { class: "l" }, data.engines[current.e]), el("td", {}, String(errors(base))), el("td", {}, String(errors(current))),
            el("td", {}, (change > 0 ? "+" : "") + change + (change > 0 ? " (worse)" : " (better)")), el("td", { class: "l" }, base.hyp), el("td", { class: "l" }, current.hyp)];
        }
        function refresh() {
          const engine = engineSelect.value, direction = document.getElementById("direction").value;
          const rows = [];
          changes.forEach((pair, index) => {
            const [base, current] = pair.map((r) => data.runs[r]);
            const change = errors(current) - errors(base);
            if ((engine === "" || current.e === Number(engine)) && (direction === "" || (direction === "rose") === (change > 0))) rows.push(index);
          });
          show(rows, cells);
        }
        onFilters(refresh);
        route(/^#p=(\d+)$/, (index) => {
          const pair = changes[index];
          if (!pair) return undefined;
          const [base, current] = pair.map((r) => data.runs[r]), utterance = data.utterances[current.u], name = data.engines[current.e];
          const opened = utteranceView(utterance);
          const side = el("div", { class: "side" });
          for (const [label, run] of [["baseline", base], ["this run", current]]) {
            side.append(el("section", {}, el("h3", {}, name + ": " + label), runSummary(run), alignmentTable(run, label + ": alignment with the reference")));
          }
          // One time axis for both runs, so a result that came earlier or later lines up.
          opened.container.append(side, el("h3", {}, "Timeline, baseline above this run"),
            timeline(utterance, [{ label: "baseline", run: base }, { label: "this run", run: current }]));
          return opened;
        });
        """#

    /// The migration page: differing utterances, each opening the old side's final words aligned
    /// with the new side's, and both sides' display updates on one time axis.
    static let migration = #"""
        const items = data.items;
        const show = pager(document.getElementById("runs"), document.getElementById("status"), document.getElementById("previous"), document.getElementById("next"), 50);
        function cells(index) {
          const item = items[index], [old, current] = item.runs.map((r) => data.runs[r]), utterance = data.utterances[old.u];
          return [el("td", { class: "l" }, el("a", { href: "#m=" + index }, utterance.id)), el("td", { class: "l" }, item.failures.length ? "noticeable" : "expected"),
            el("td", { class: "l" }, item.failures.concat(item.expected).join("; ")), el("td", { class: "l" }, old.hyp), el("td", { class: "l" }, current.hyp)];
        }
        function refresh() {
          const verdict = document.getElementById("verdict").value;
          const rows = items.map((_, index) => index).filter((index) => verdict === "" || (verdict === "fails") === (items[index].failures.length > 0));
          rows.sort((a, b) => (items[b].failures.length > 0) - (items[a].failures.length > 0) || a - b);
          show(rows, cells);
        }
        onFilters(refresh);
        route(/^#m=(\d+)$/, (index) => {
          const item = items[index];
          if (!item) return undefined;
          const [old, current] = item.runs.map((r) => data.runs[r]), utterance = data.utterances[old.u];
          const opened = utteranceView(utterance);
          const list = el("ul");
          for (const text of item.failures) list.append(el("li", { class: "error" }, "noticeable: " + text));
          for (const text of item.expected) list.append(el("li", {}, "expected: " + text));
          opened.container.append(el("h3", {}, "Differences"), list,
            alignmentTable({ align: item.alignment }, data.engines[0] + " final words (REF) against " + data.engines[1] + " (HYP)"));
          for (const run of [old, current]) if (run.error) opened.container.append(el("p", { class: "error" }, data.engines[run.e] + " failed: " + run.error));
          opened.container.append(el("h3", {}, "What each side showed the app, and when"),
            timeline(utterance, [old, current].map((run) => ({ label: data.engines[run.e], run: run }))));
          return opened;
        });
        """#
}

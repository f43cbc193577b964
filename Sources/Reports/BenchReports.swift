import Foundation
import Metrics
import Records

/// Turns benchmark records and summaries into the files a run leaves behind.
public enum BenchReports {
    /// What the HTML pages add beyond the figures.
    public struct PageOptions: Sendable {
        /// A baseline run's records and its name: with them, regressions.html.
        public var baseline: (records: [UtteranceRecord], name: String)?
        /// Inline small clips in explorer.html instead of linking into the corpus.
        public var embedAudio: Bool

        public init(baseline: (records: [UtteranceRecord], name: String)? = nil, embedAudio: Bool = false) {
            self.baseline = baseline
            self.embedAudio = embedAudio
        }
    }

    /// Writes results.json, junit/bench.xml, summary.md, index.html, explorer.html (with a
    /// baseline, regressions.html) and trn/ under `directory`.
    public static func writeAll(
        results: BenchResults, records: [UtteranceRecord], to directory: String,
        pages: PageOptions = PageOptions()
    ) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/junit", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: directory + "/trn", withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try ReportFile.write(
            String(decoding: try encoder.encode(results), as: UTF8.self), to: directory + "/results.json")
        let junitPath = directory + "/junit/bench.xml"
        try JUnitWriter.write(junit(results: results, records: records), to: junitPath)
        let problems = JUnitWriter.validate(path: junitPath)
        if !problems.isEmpty { throw ReportError.invalid(path: junitPath, problems: problems) }
        try ReportFile.write(markdown(results), to: directory + "/summary.md")
        try writePages(results: results, records: records, to: directory, options: pages)
        for (name, (ref, hyp)) in trn(records) {
            // An engine name may hold a path (`replay:/path/to/traces`): not a folder here.
            let file = name.replacingOccurrences(of: "/", with: "_")
            try ReportFile.write(ref, to: "\(directory)/trn/\(file).ref.trn")
            try ReportFile.write(hyp, to: "\(directory)/trn/\(file).hyp.trn")
        }
    }

    /// index.html, explorer.html and regressions.html, each linking to the others and to the
    /// conformance and migration pages already in the folder.
    static func writePages(
        results: BenchResults, records: [UtteranceRecord], to directory: String, options: PageOptions
    ) throws {
        let partialEngines = HTMLReport.partialEngines(results)
        var links = [ReportLink.overview, ReportLink.explorer]
        if options.baseline != nil { links.append(.regressions) }
        links += ReportLink.siblings(in: directory)
        let allRecords = records + (options.baseline?.records ?? [])
        let audio = ReportAudio.sources(records: allRecords, reportDirectory: directory, embed: options.embedAudio)
        try ReportFile.write(
            HTMLReport.render(results: results, records: records, links: links),
            to: directory + "/" + ReportLink.overview.file)
        try ReportFile.write(
            UtteranceExplorer.render(records: records, partialEngines: partialEngines, audio: audio, links: links),
            to: directory + "/" + ReportLink.explorer.file)
        if let baseline = options.baseline {
            let comparison = RunComparison(baseline: baseline.records, current: records)
            try ReportFile.write(
                RegressionPage.render(
                    comparison, baselineName: baseline.name, partialEngines: partialEngines, audio: audio, links: links),
                to: directory + "/" + ReportLink.regressions.file)
        }
    }

    /// The folder a manifest sits in (its tier, in the corpus layout), file-name safe.
    static func tierName(ofManifest manifest: String) -> String {
        safeName(
            (manifest as NSString).deletingLastPathComponent.split(separator: "/").last.map(String.init) ?? manifest)
    }

    /// A file-name-safe form of an id or a path.
    public static func safeName(_ text: String) -> String {
        let name = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "_" })
        return String(name.prefix(120))
    }

    static func tier(_ summary: BenchSummary) -> String {
        summary.tier.isEmpty ? safeName(summary.manifest) : summary.tier
    }

    /// The mark beside a speaker-dependent figure, and the note that explains it.
    static let speakerDependentMark = "†"
    static let speakerDependentNote =
        "† speaker-dependent: the engine learned this locale from these utterances' own voices (its enrolled templates), so the figure says nothing about other speakers."

    /// `label` with the mark when its figure is speaker-dependent.
    static func marked(_ label: String, speakerDependent: Bool) -> String {
        speakerDependent ? label + " " + speakerDependentMark : label
    }

    /// The tier as tables and charts show a figure's row: marked when the figure is speaker-dependent.
    static func tierLabel(_ summary: BenchSummary) -> String {
        marked(tier(summary), speakerDependent: summary.speakerDependent == true)
    }

    /// An engine's name in a comparison on `manifest`, marked when its figure there is speaker-dependent.
    static func engineLabel(_ engine: String, manifest: String, _ summaries: [BenchSummary]) -> String {
        marked(
            engine,
            speakerDependent: summaries.contains {
                $0.engine == engine && $0.manifest == manifest && $0.speakerDependent == true
            })
    }

    static func format(_ value: Double?, _ digits: Int = 3) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: "%.\(digits)f", value)
    }

    // MARK: JUnit

    /// One suite per engine; a case per engine × manifest with its metrics as properties, gate
    /// breaches as failures, the worst alignments in system-out; a case per failed utterance as
    /// an error with its cause.
    public static func junit(results: BenchResults, records: [UtteranceRecord]) -> JUnitReport {
        let now = Date()
        let byEngine = Dictionary(grouping: results.summaries, by: \.engine)
        var suites: [JUnitReport.Suite] = []
        for engine in byEngine.keys.sorted() {
            var cases: [JUnitReport.Case] = []
            for summary in byEngine[engine]! {
                let group = records.filter { $0.engine == engine && $0.manifest == summary.manifest }
                let breaches = results.gateFailures.filter { $0.engine == engine && $0.manifest == summary.manifest }
                let worst = group.filter { $0.error == nil }.sorted { $0.words.errors > $1.words.errors }.prefix(5)
                let out = worst.map {
                    "\($0.id) (S=\($0.words.substitutions) D=\($0.words.deletions) I=\($0.words.insertions))\n\($0.alignment)"
                }
                .joined(separator: "\n\n")
                var properties: [(String, String)] = [
                    ("policy", summary.policy), ("utterances", String(summary.utterances)),
                    ("failedUtterances", String(summary.failedUtterances)),
                    ("referenceWords", String(summary.referenceWords)),
                    ("substitutions", String(summary.substitutions)),
                    ("deletions", String(summary.deletions)), ("insertions", String(summary.insertions)),
                    ("wer", format(summary.wer, 4)), ("cer", format(summary.cer, 4)), ("ser", format(summary.ser, 4)),
                    ("rtfx", format(summary.rtfx, 1)), ("rtfxClock", summary.computeClock ?? "wall"),
                    ("wallRTFx", format(summary.wallRTFx, 1)),
                    ("audioSeconds", format(summary.audioSeconds, 1)),
                ]
                if summary.werCI95.count == 2 {
                    properties.append(("werCI95", "\(format(summary.werCI95[0], 4)) \(format(summary.werCI95[1], 4))"))
                }
                if let cerCI95 = summary.cerCI95, cerCI95.count == 2 {
                    properties.append(("cerCI95", "\(format(cerCI95[0], 4)) \(format(cerCI95[1], 4))"))
                }
                for (name, value) in [
                    ("firstPartialP50", summary.firstPartialP50), ("finalizationP50", summary.finalizationP50),
                    ("emissionDelayP90", summary.emissionDelayP90),
                    ("unstablePartialWordRatio", summary.unstablePartialWordRatio),
                    ("correctionsPerUtterance", summary.correctionsPerUtterance),
                    ("correctionsPerMinute", summary.correctionsPerMinute),
                    ("drainP50", summary.drainP50), ("drainP90", summary.drainP90),
                    ("loadSeconds", summary.loadSeconds),
                ] {
                    if let value { properties.append((name, format(value))) }
                }
                for (name, latency) in [
                    ("hypothesisLatency", summary.hypothesisLatency), ("confirmedLatency", summary.confirmedLatency),
                ] {
                    guard let latency else { continue }
                    properties += [
                        ("\(name)P50", format(latency.p50)), ("\(name)P90", format(latency.p90)),
                        ("\(name)P99", format(latency.p99)),
                        ("\(name)P90CI95", latency.p90CI95.map { format($0) }.joined(separator: " ")),
                    ]
                }
                if let rss = summary.peakRSSBytes { properties.append(("peakRSSBytes", String(rss))) }
                if summary.speakerDependent == true { properties.append(("speakerDependent", "true")) }
                let outcome: JUnitReport.Outcome
                if summary.failedUtterances == summary.utterances && summary.utterances > 0 {
                    outcome = .error(message: "every utterance failed", details: group.compactMap(\.error).first ?? "")
                } else if !breaches.isEmpty {
                    outcome = .failure(
                        message: breaches.map(\.description).joined(separator: "; "),
                        details: breaches.map(\.description).joined(separator: "\n"))
                } else {
                    outcome = .passed
                }
                let compute = group.reduce(0) { $0 + $1.computeSeconds }
                cases.append(
                    JUnitReport.Case(
                        classname: "bench.\(engine).\(tier(summary))", name: "\(tier(summary)) [\(summary.policy)]",
                        seconds: compute, properties: properties, outcome: outcome, systemOut: out))
                for failed in group where failed.error != nil {
                    cases.append(
                        JUnitReport.Case(
                            classname: "bench.\(engine).\(tier(summary)).utterance", name: failed.id,
                            seconds: failed.computeSeconds,
                            outcome: .error(message: String(failed.error!.prefix(300)), details: failed.error!)))
                }
            }
            for issue in results.issues where issue.engine == engine {
                cases.append(
                    JUnitReport.Case(
                        classname: "bench.\(engine).setup", name: safeName(issue.manifest), seconds: 0,
                        outcome: .error(message: String(issue.message.prefix(300)), details: issue.message)))
            }
            suites.append(JUnitReport.Suite(name: "bench.\(engine)", timestamp: now, cases: cases))
        }
        let manifestIssues = results.issues.filter { $0.engine == nil }
        if !manifestIssues.isEmpty {
            suites.append(
                JUnitReport.Suite(
                    name: "bench.corpus", timestamp: now,
                    cases: manifestIssues.enumerated().map { index, issue in
                        JUnitReport.Case(
                            classname: "bench.corpus.manifest", name: "\(safeName(issue.manifest)) #\(index + 1)",
                            seconds: 0,
                            outcome: .error(message: String(issue.message.prefix(300)), details: issue.message))
                    }))
        }
        return JUnitReport(name: "speech-harness bench", suites: suites)
    }

    // MARK: Markdown

    public static func markdown(_ results: BenchResults) -> String {
        var lines = [
            "## Benchmark", "",
            "Scoring: `\(results.policy)` (each row's policy is in its JUnit case name and results.json) · pacing: \(results.pacing) · shard \(results.shard) · \(results.createdAt)",
            "",
            "RTFx (CPU): audio seconds per second of the engine's CPU time; RTFx (wall): per second of wall time in the calls, "
                + "waiting included (a value marked * had no CPU figure from the engine and is wall time; none for policies that shared decodes, "
                + "whose answers from memory keep the CPU time measured when they were made). Latencies are simulated on CPU time.",
            "",
        ]
        lines += tableHeader(
            "engine", "tier", "utts:", "words:", "WER:", "95% CI", "CER:", "CER 95% CI", "RTFx (CPU):", "RTFx (wall):",
            "first partial P50:", "final P50:", "emission P90:", "unstable:")
        for s in results.summaries {
            let ci = s.werCI95.count == 2 ? "\(format(s.werCI95[0] * 100, 1))–\(format(s.werCI95[1] * 100, 1))%" : "–"
            let cerCI =
                s.cerCI95.flatMap { $0.count == 2 ? "\(format($0[0] * 100, 1))–\(format($0[1] * 100, 1))%" : nil }
                ?? "–"
            let failed = s.failedUtterances > 0 ? " (\(s.failedUtterances) failed)" : ""
            lines.append(
                "| \(md(s.engine)) | \(md(tierLabel(s))) | \(s.utterances)\(failed) | \(s.referenceWords) | \(format(s.wer * 100, 1))% | \(ci) | \(format(s.cer * 100, 1))% | \(cerCI) | \(format(s.rtfx, 1))\(s.computeClock == "wall" ? "*" : "") | \(format(s.wallRTFx, 1)) | \(format(s.firstPartialP50, 2)) | \(format(s.finalizationP50, 2)) | \(format(s.emissionDelayP90, 2)) | \(format(s.unstablePartialWordRatio, 2)) |"
            )
        }
        if results.summaries.contains(where: { $0.speakerDependent == true }) { lines += ["", speakerDependentNote] }
        lines += streamingLatency(results.summaries)
        if let comparisons = results.comparisons, !comparisons.isEmpty {
            lines += ["", "**Engines compared on the same utterances** (paired bootstrap; Δ = WER(B) − WER(A))", ""]
            lines += tableHeader("tier", "A", "B", "utts:", "WER A:", "WER B:", "Δ:", "95% CI", "P(B better):")
            lines += comparisons.map { c in
                let tier = tierName(ofManifest: c.manifest)
                return
                    "| \(md(tier)) | \(md(engineLabel(c.a, manifest: c.manifest, results.summaries))) | \(md(engineLabel(c.b, manifest: c.manifest, results.summaries))) | \(c.utterances) | \(format(c.werA * 100, 1))% | \(format(c.werB * 100, 1))% | "
                    + "\(format(c.difference * 100, 1)) | \(format(c.differenceCI95.first.map { $0 * 100 }, 1))…\(format(c.differenceCI95.last.map { $0 * 100 }, 1)) | "
                    + "\(format(c.probabilityBBetter, 2)) |"
            }
        }
        if let breakdowns = results.breakdowns, !breakdowns.isEmpty {
            // The worst groups only: a breakdown is for finding where errors concentrate.
            let worst = breakdowns.filter { $0.referenceWords > 0 }.sorted { ($1.wer, $0.key) < ($0.wer, $1.key) }
                .prefix(15)
            lines += ["", "**Worst speakers and tasks** (all of them in results.json)", ""]
            lines += tableHeader("engine", "tier", "by", "group", "utts:", "words:", "WER:", "95% CI")
            lines += worst.map { b in
                let tier = tierName(ofManifest: b.manifest)
                let ci =
                    b.werCI95.count == 2 ? "\(format(b.werCI95[0] * 100, 1))–\(format(b.werCI95[1] * 100, 1))%" : "–"
                return
                    "| \(md(b.engine)) | \(md(tier)) | \(b.dimension) | \(md(b.key)) | \(b.utterances) | \(b.referenceWords) | \(format(b.wer * 100, 1))% | \(ci) |"
            }
        }
        if !results.gateFailures.isEmpty {
            lines += ["", "**Gate failures**", ""] + results.gateFailures.map { "- " + md($0.description) }
        }
        if let missing = results.notInBaseline, !missing.isEmpty {
            lines += ["", "Not in the regression baseline (not compared): " + missing.map(md).joined(separator: "; ")]
        }
        if !results.issues.isEmpty {
            lines +=
                ["", "**Problems**", ""]
                + results.issues.prefix(50).map { "- \(md($0.engine ?? "corpus")): \(md($0.message))" }
        }
        lines += [
            "",
            "Times in seconds; WER pooled over utterances (S+D+I)/N; latencies with simulated real-time pacing unless stated.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Latency and stability side by side for the engines measured as a stream: both percentiles,
    /// and engines that gave no partial results marked as such rather than given a "first partial"
    /// that is their final result. An engine's tiers without reference word times (so without
    /// latencies) stay in, for their WER and compute.
    static func streamingLatency(_ summaries: [BenchSummary]) -> [String] {
        let timed = Set(summaries.filter { $0.finalizationP50 != nil }.map(\.engine))
        let streamed = summaries.filter { timed.contains($0.engine) }
        guard !streamed.isEmpty else { return [] }
        var lines = [
            "",
            "**Streaming latency** (seconds after the first word's start, for the first partial, and after the last word's end, "
                + "for the final; simulated on CPU time. Word shown and word final: per reference word, when it was first shown "
                + "and when it became final, after its end, pooled over utterances (intervals in results.json). "
                + "Drain: from the call that ends the input to the last final result. "
                + "Unstable: words shown and later withdrawn per final word. Corrections: shown words replaced, withdrawn "
                + "or put in among them, per minute of audio (OpenBench's count). "
                + "CPU: engine CPU seconds per audio second)", "",
        ]
        lines += tableHeader(
            "engine", "tier", "utts:", "WER:", "first partial P50:", "first partial P90:", "final P50:", "final P90:",
            "word shown P50 / P90 / P99:", "word final P50 / P90 / P99:", "drain P50 / P90:", "unstable:",
            "corrections /min:", "revised utts:", "CPU:")
        for s in streamed {
            let partial =
                s.emitsPartials == false
                ? ["final only", "final only"] : [format(s.firstPartialP50, 2), format(s.firstPartialP90, 2)]
            let revised = s.revisedUtteranceShare.map { "\(format($0 * 100, 0))%" } ?? "–"
            lines.append(
                "| \(md(s.engine)) | \(md(tierLabel(s))) | \(s.utterances) | \(format(s.wer * 100, 1))% | \(partial[0]) | \(partial[1]) | "
                    + "\(format(s.finalizationP50, 2)) | \(format(s.finalizationP90, 2)) | \(percentiles(s.hypothesisLatency)) | "
                    + "\(percentiles(s.confirmedLatency)) | \(format(s.drainP50, 2)) / \(format(s.drainP90, 2)) | "
                    + "\(format(s.unstablePartialWordRatio, 2)) | "
                    + "\(format(s.correctionsPerMinute, 1)) | \(revised) | "
                    + "\(s.rtfx > 0 ? format(1 / s.rtfx, 2) : "–")\(s.computeClock == "wall" ? "*" : "") |")
        }
        return lines
    }

    /// `P50 / P90 / P99` of a per-word latency, or a dash.
    static func percentiles(_ latency: LatencyPercentiles?) -> String {
        latency.map { "\(format($0.p50, 2)) / \(format($0.p90, 2)) / \(format($0.p99, 2))" } ?? "–"
    }

    /// Escapes text for a Markdown table cell.
    /// A Markdown table's header and alignment rows; a column written with a trailing `:` holds
    /// numbers and is right-aligned.
    static func tableHeader(_ columns: String...) -> [String] {
        let names = columns.map { $0.hasSuffix(":") ? String($0.dropLast()) : $0 }
        let rules = columns.map { $0.hasSuffix(":") ? "---:" : "---" }
        return ["| " + names.joined(separator: " | ") + " |", "| " + rules.joined(separator: " | ") + " |"]
    }

    static func md(_ text: String) -> String {
        var out = ""
        for ch in JUnitWriter.sanitize(text) {
            switch ch {
            case "|", "\\", "`", "*", "_", "[", "]", "<", ">", "#": out += "\\\(ch)"
            case "\n", "\r": out += " "
            default: out.append(ch)
            }
        }
        return out
    }

    // MARK: sclite trn

    /// Reference and hypothesis trn files per engine × manifest, with the scored (normalised) texts.
    public static func trn(_ records: [UtteranceRecord]) -> [String: (String, String)] {
        var out: [String: (String, String)] = [:]
        let groups = Dictionary(grouping: records.filter { $0.error == nil }) {
            "\($0.engine).\(tierName(ofManifest: $0.manifest))"
        }
        for (name, group) in groups {
            var ref = "", hyp = ""
            for record in group {
                let policy = policyFor(record.policy)
                let id = "(\(safeName(record.speaker))_\(safeName(record.id)))"
                ref += "\(policy.prepare(record.reference)) \(id)\n"
                hyp += "\(policy.prepare(record.hypothesis)) \(id)\n"
            }
            out[name] = (ref, hyp)
        }
        return out
    }

    static func policyFor(_ name: String) -> ScoringPolicy {
        let parts = name.split(separator: "+", maxSplits: 1).map(String.init)
        let normalizer = TextNormalizer(name: parts.first ?? "") ?? .basic
        return ScoringPolicy(
            normalizer: normalizer,
            equivalences: parts.count > 1 && parts[1] == EquivalenceMap.ohIsZero.name ? .ohIsZero : nil)
    }
}

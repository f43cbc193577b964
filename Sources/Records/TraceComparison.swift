import Foundation
import Metrics

/// Two traces of one scenario compared clause by clause. A difference is classified by what it
/// means for a program: `semantics` (a call's outcome, the calls made, how a result sequence ended:
/// the program would behave differently; a failure), `content` (words, times, result cadence:
/// reported with figures), `platform` (system, error wording: reported).
public struct TraceComparison: Sendable, Equatable {
    public struct Tolerances: Sendable, Equatable {
        /// Times (a call's input position, a word's start, finalization) may differ by this much.
        public var seconds: Double
        /// Words are compared after this normaliser.
        public var normalizer: TextNormalizer
        /// Median result latencies (traces paced in real time) may differ by this much.
        public var latency: Double

        /// Whether errors of the same domain and code that differ in wording are reported.
        public var wording: Bool

        public init(
            seconds: Double = 0.05, normalizer: TextNormalizer = .english, latency: Double = 0.25, wording: Bool = false
        ) {
            self.seconds = seconds
            self.normalizer = normalizer
            self.latency = latency
            self.wording = wording
        }
    }

    public enum Kind: String, Sendable, Equatable, CaseIterable { case semantics, content, platform }

    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public var kind: Kind
        /// What was compared: `calls`, `streams`, `results[0].words`…
        public var clause: String
        public var detail: String

        public var description: String { "\(kind.rawValue) \(clause): \(detail)" }
    }

    public var scenario: String
    public var differences: [Difference]

    /// Whether a program would behave differently.
    public var failed: Bool { differences.contains { $0.kind == .semantics } }

    public static func compare(
        _ a: SessionTrace, _ b: SessionTrace, tolerances: Tolerances = Tolerances()
    ) -> TraceComparison {
        var found: [Difference] = []
        func add(_ kind: Kind, _ clause: String, _ detail: String) {
            found.append(Difference(kind: kind, clause: clause, detail: detail))
        }
        let (sa, sb) = (a.session, b.session)
        if sa.platform != sb.platform {
            add(
                .platform, "platform",
                "\(sa.platform.system) \(sa.platform.version) (\(sa.platform.speech)) against \(sb.platform.system) \(sb.platform.version) (\(sb.platform.speech))"
            )
        }
        if sa.scenario != sb.scenario {
            add(.semantics, "session.scenario", "'\(sa.scenario)' against '\(sb.scenario)'")
        }
        if sa.audio.sha256 != sb.audio.sha256 {
            add(.semantics, "session.audio", "\(sa.audio.name) and \(sb.audio.name) are not the same audio")
        }
        if sa.modules != sb.modules || sa.input != sb.input || sa.bufferFrames != sb.bufferFrames {
            add(.semantics, "session.modules", "the sessions were set up differently")
        }

        // Calls: the same calls, in order, with the same outcomes.
        let (ca, cb) = (a.calls, b.calls)
        if ca.map(\.name) != cb.map(\.name) {
            add(
                .semantics, "calls",
                "\(ca.map(\.name).joined(separator: ", ")) against \(cb.map(\.name).joined(separator: ", "))")
        }
        for (x, y) in zip(ca, cb) where x.name == y.name {
            if x.outcome != y.outcome {
                add(
                    .semantics, "calls.\(x.name)",
                    "\(x.outcome.rawValue)\(x.error.map { " (\($0))" } ?? "") against \(y.outcome.rawValue)\(y.error.map { " (\($0))" } ?? "")"
                )
            } else if let e = x.error, let f = y.error {
                compareErrors(e, f, clause: "calls.\(x.name).error", tolerances, add)
            }
            if x.value != y.value {
                // A time a call returns (analyzeSequence's end of input) follows from the audio
                // given, whatever the platform: a program would act on another one. Other values
                // (a preferred format) may differ with the engine.
                if let a = x.value.flatMap(Double.init), let b = y.value.flatMap(Double.init) {
                    if abs(a - b) > tolerances.seconds {
                        add(.semantics, "calls.\(x.name).value", "\(a) s against \(b) s")
                    }
                } else {
                    add(.content, "calls.\(x.name).value", "\(x.value ?? "–") against \(y.value ?? "–")")
                }
            }
            if abs(x.inputSeconds - y.inputSeconds) > tolerances.seconds {
                add(.content, "calls.\(x.name).inputSeconds", "\(x.inputSeconds) s against \(y.inputSeconds) s")
            }
        }

        // How each module's result sequence ended.
        for (index, (x, y)) in zip(a.streams, b.streams).enumerated() {
            switch (x, y) {
            case (.finished, .finished), (.open, .open): break
            case (.threw(let e), .threw(let f)):
                compareErrors(e, f, clause: "streams[\(index)]", tolerances, add)
            default: add(.semantics, "streams[\(index)]", "\(describe(x)) against \(describe(y))")
            }
        }
        if a.streams.count != b.streams.count {
            add(.semantics, "streams", "\(a.streams.count) result sequences against \(b.streams.count)")
        }

        // Results, per module; how far each session's results must be final.
        let (owedA, owedB) = (finalThrough(a), finalThrough(b))
        for module in sa.modules.map(\.index) {
            let ra = a.results.filter { $0.module == module }, rb = b.results.filter { $0.module == module }
            let clause = "results[\(module)]"
            let cadence = { (r: [SessionTrace.Result]) in (r.filter(\.isFinal).count, r.filter { !$0.isFinal }.count) }
            let (fa, va) = cadence(ra), (fb, vb) = cadence(rb)
            if (fa, va) != (fb, vb) {
                add(
                    .content, "\(clause).cadence",
                    "\(fa) final and \(va) volatile against \(fb) final and \(vb) volatile")
            }
            if let last = ra.last, let other = rb.last,
                abs(last.finalizedThrough - other.finalizedThrough) > tolerances.seconds
            {
                // After a normal finish everything given is final: falling short of that in one
                // trace only is finality, a program would act on it; otherwise it is cadence.
                if let owedA, let owedB,
                    (last.finalizedThrough >= owedA - tolerances.seconds)
                        != (other.finalizedThrough >= owedB - tolerances.seconds)
                {
                    add(
                        .semantics, "\(clause).finality",
                        "after the session finished, results were final through \(last.finalizedThrough) s against \(other.finalizedThrough) s (audio given: \(owedA) s against \(owedB) s)"
                    )
                } else {
                    add(
                        .content, "\(clause).finalizedThrough",
                        "\(last.finalizedThrough) s against \(other.finalizedThrough) s")
                }
            }
            // Latency, where both were paced in real time: the median for final results and for
            // volatile ones, each where both traces have some.
            for (kind, final) in [("final", true), ("volatile", false)] {
                let la = ra.filter { $0.isFinal == final }.compactMap(\.latency)
                let lb = rb.filter { $0.isFinal == final }.compactMap(\.latency)
                guard let ma = median(la), let mb = median(lb), abs(ma - mb) > tolerances.latency else { continue }
                add(
                    .content, "\(clause).latency",
                    String(
                        format: "median %@ latency %.3f s against %.3f s (%d and %d results; tolerance %.3f s)", kind,
                        ma, mb, la.count, lb.count, tolerances.latency))
            }
            // The rules every module's results obey, whatever the engine: a rule one trace breaks
            // and the other keeps is a difference a program would see.
            let (ka, kb) = (ruleBreaks(ra), ruleBreaks(rb))
            for rule in Set(ka.keys).symmetricDifference(kb.keys).sorted() {
                add(
                    .semantics, "\(clause).rules",
                    "\(ka[rule] ?? kb[rule] ?? rule) in the \(ka[rule] != nil ? "first" : "second") only")
            }
            // Time ranges on word runs follow the transcriber's options, whatever the engine.
            let timed = { (r: [SessionTrace.Result]) in r.contains { $0.runs?.contains { $0.start != nil } == true } }
            if !ra.isEmpty, !rb.isEmpty, timed(ra) != timed(rb) {
                add(
                    .semantics, "\(clause).attributes",
                    "word runs carry time ranges in \(timed(ra) ? "the first" : "the second") only")
            }
            let wa = words(ra, tolerances.normalizer), wb = words(rb, tolerances.normalizer)
            let alignment = WordAligner.align(reference: wa.map(\.text), hypothesis: wb.map(\.text))
            let counts = alignment.counts
            if counts.referenceLength == 0, !wb.isEmpty {
                add(.content, "\(clause).words", "no final words in the first against \(wb.count) in the second")
            } else if counts.errors > 0 {
                add(
                    .content, "\(clause).words",
                    String(
                        format:
                            "WER %.1f%% of the second against the first (%d words; %d substituted, %d deleted, %d inserted)",
                        counts.errorRate * 100, counts.referenceLength, counts.substitutions, counts.deletions,
                        counts.insertions))
            }
            // Start times of the words both heard, where both give times.
            let deltas = alignment.matchedPositions.compactMap { pair -> Double? in
                guard let x = wa[pair.reference].start, let y = wb[pair.hypothesis].start else { return nil }
                return abs(x - y)
            }
            if let worst = deltas.max(), worst > tolerances.seconds {
                let mean = deltas.reduce(0, +) / Double(deltas.count)
                add(
                    .content, "\(clause).times",
                    String(
                        format: "word starts differ by up to %.3f s (mean %.3f s over %d words; tolerance %.3f s)",
                        worst,
                        mean, deltas.count, tolerances.seconds))
            }
        }
        compareVolatileRanges(a.volatileRanges, b.volatileRanges, add)
        return TraceComparison(scenario: sa.scenario, differences: found)
    }

    /// Volatile range reports: which handlers heard them and whether the start only moved forward
    /// are semantics (a replaced handler is not called again; the start never moves back); how many
    /// there were is content.
    private static func compareVolatileRanges(
        _ a: [SessionTrace.VolatileRange], _ b: [SessionTrace.VolatileRange],
        _ add: (Kind, String, String) -> Void
    ) {
        guard !a.isEmpty || !b.isEmpty else { return }
        let (ha, hb) = (Set(a.map(\.handler)).sorted(), Set(b.map(\.handler)).sorted())
        if ha != hb {
            add(
                .semantics, "volatileRange.handlers",
                "reports reached handlers \(ha.map(String.init).joined(separator: ", ")) against \(hb.map(String.init).joined(separator: ", "))"
            )
        }
        /// The first report, per handler, whose start is before the start of the one before it.
        func backwards(_ reports: [SessionTrace.VolatileRange]) -> SessionTrace.VolatileRange? {
            var last: [Int: Double] = [:]
            for report in reports {
                if let before = last[report.handler], report.start < before { return report }
                last[report.handler] = report.start
            }
            return nil
        }
        switch (backwards(a), backwards(b)) {
        case (nil, let moved?):
            add(.semantics, "volatileRange.start", "the start moved back to \(moved.start) s in the second only")
        case (let moved?, nil):
            add(.semantics, "volatileRange.start", "the start moved back to \(moved.start) s in the first only")
        default: break
        }
        if a.count != b.count {
            add(.content, "volatileRange.reports", "\(a.count) reports against \(b.count)")
        }
    }

    /// Two errors both threw where a program saw them: another domain or code is semantics (code
    /// that tests `(error as NSError).code` would act otherwise); the same with other words is
    /// platform, reported with `wording`. Traces without the domain and code compare their text.
    private static func compareErrors(
        _ e: String, _ f: String, clause: String, _ tolerances: Tolerances, _ add: (Kind, String, String) -> Void
    ) {
        guard e != f else { return }
        if let a = errorIdentity(e), let b = errorIdentity(f) {
            if a != b {
                add(.semantics, clause, "threw \(a) against \(b) ('\(e)' against '\(f)')")
            } else if tolerances.wording {
                add(.platform, clause, "'\(e)' against '\(f)'")
            }
            return
        }
        add(.platform, clause, "'\(e)' against '\(f)'")
    }

    /// "SFSpeechErrorDomain 16" from an error as the recorder writes it ("<domain> <code>: …").
    public static func errorIdentity(_ error: String) -> String? {
        let parts = error.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, parts[1].hasSuffix(":"), Int(parts[1].dropLast()) != nil else { return nil }
        return "\(parts[0]) \(parts[1].dropLast())"
    }

    /// The result rules a module's results break, each with its first instance: `isFinal` is
    /// whether the results are finalized through the range's end; final results come in order
    /// without overlapping; a transcriber's alternatives lead with its text.
    static func ruleBreaks(_ results: [SessionTrace.Result]) -> [String: String] {
        var broken: [String: String] = [:]
        var lastFinalEnd = -Double.infinity
        for result in results {
            let end = result.start + result.duration
            if result.isFinal != (result.finalizedThrough >= end - 1e-6), broken["isFinal"] == nil {
                broken["isFinal"] =
                    "a result over \(result.start)–\(end) s finalized through \(result.finalizedThrough) s says isFinal \(result.isFinal)"
            }
            if result.isFinal, result.duration > 0 {
                if result.start < lastFinalEnd - 1e-6, broken["order"] == nil {
                    broken["order"] =
                        "a final result starting at \(result.start) s overlaps or precedes one ending at \(lastFinalEnd) s"
                }
                lastFinalEnd = max(lastFinalEnd, end)
            }
            if let alternatives = result.alternatives, let text = result.text,
                alternatives.first != text, broken["alternatives"] == nil
            {
                broken["alternatives"] = "alternatives do not begin with the result's text ('\(text)')"
            }
        }
        return broken
    }

    static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : ErrorRateStatistics.percentile(values.sorted(), 0.5)
    }

    /// The calls that finish a session once its input is final.
    static let finishingCalls: Set<String> = [
        "finalizeAndFinishThroughEndOfInput()", "finalizeAndFinish(through:)",
        "start(inputAudioFile:finishAfterFile:)",
    ]

    /// How far a session's results must be final: the audio the program gave, when the session
    /// was finished normally (its finishing call returned, every result sequence finished); nil
    /// otherwise.
    static func finalThrough(_ trace: SessionTrace) -> Double? {
        guard trace.streams.allSatisfy({ $0 == .finished }),
            let finishing = trace.calls.last(where: { finishingCalls.contains($0.name) }),
            finishing.outcome == .returned, !trace.calls.contains(where: { $0.name == "cancelAndFinishNow()" })
        else { return nil }
        if trace.session.input == .file {
            return trace.session.audio.seconds
        }
        return trace.calls.map(\.inputSeconds).max()
    }

    private static func describe(_ ending: SessionTrace.StreamEnding) -> String {
        switch ending {
        case .finished: return "finished"
        case .open: return "still open after the session finished"
        case .threw(let error): return "threw (\(error))"
        }
    }

    /// The final words of a module's results after the normaliser, each with its start where the
    /// run that holds it has one.
    static func words(
        _ results: [SessionTrace.Result], _ normalizer: TextNormalizer
    ) -> [(text: String, start: Double?)] {
        results.filter(\.isFinal).flatMap { result -> [(text: String, start: Double?)] in
            guard let runs = result.runs, !runs.isEmpty else {
                return normalizer.normalize(result.text ?? "").split(separator: " ").map { (String($0), nil) }
            }
            return runs.flatMap { run in
                normalizer.normalize(run.text).split(separator: " ").map { (String($0), run.start) }
            }
        }
    }
}

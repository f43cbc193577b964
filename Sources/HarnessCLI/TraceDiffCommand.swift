import Foundation
import Metrics
import Records
import Reports

/// `speech-harness trace diff`: two recordings of the same scenarios compared clause by clause.
enum TraceDiffCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "trace diff",
            summary: "Compare two session traces, or two folders of them paired by file name, clause by clause.",
            options: [tolerance.spec, latencyTolerance.spec, normalizer.spec, wording.spec, junit.spec, html.spec],
            arguments: [ArgumentSpec(name: "first"), ArgumentSpec(name: "second")],
            details: """
                Each difference is semantics (the calls made, a call's outcome or error code, how a result sequence ended: a \
                program would behave differently), content (words, times, result cadence, latency, with figures) or \
                platform (system, error wording). Exit status: 0 no semantic difference, 1 a semantic difference \
                or an unreadable trace, 2 usage error. The format: docs/session-traces.md.
                """,
            run: { try run("trace diff", $0, $1) })
    ]

    static let tolerance = Option.positive(
        "tolerance", value: "seconds", help: "Times may differ by this much (default 0.05).")
    static let latencyTolerance = Option.positive(
        "latency-tolerance", value: "seconds",
        help: "Median result latencies of traces paced in real time may differ by this much (default 0.25).")
    static let normalizer = Option.choice(
        "normalizer", TextNormalizer.self, help: "Words are compared after this normaliser (default english).")
    static let wording = Option.flag(
        "wording", help: "Also report errors of the same domain and code whose wording differs (platform).")
    static let junit = Option.text("junit", value: "file", help: "Write JUnit XML here: a case per scenario.")
    static let html = Option.text(
        "html", value: "file",
        help: "Write an HTML page here (trace-diff.html beside the other report pages links to them).")

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let (first, second) = (arguments.positionals[0], arguments.positionals[1])
        var tolerances = TraceComparison.Tolerances()
        if let seconds = arguments[Self.tolerance] { tolerances.seconds = seconds }
        if let seconds = arguments[Self.latencyTolerance] { tolerances.latency = seconds }
        tolerances.wording = arguments[Self.wording]
        if let normalizer = arguments[Self.normalizer] {
            tolerances.normalizer = normalizer
        }
        let pairs = try Self.pairs(first, second, command: path)
        var cases: [JUnitReport.Case] = []
        var compared: [TraceDiffReport.Pair] = []
        var problems = 0
        for (name, a, b) in pairs {
            let classname = "trace-diff." + name.replacingOccurrences(of: ".jsonl", with: "")
            guard let a, let b else {
                let missing = a == nil ? first : second
                console.err("speech-harness trace diff: \(name): no trace of that name in \(missing)")
                cases.append(
                    .init(
                        classname: classname, name: name, seconds: 0,
                        outcome: .error(message: "missing in \(missing)", details: name)))
                compared.append(
                    .init(name: name, outcome: .failure(TraceDiffProblem("no trace of that name in \(missing)"))))
                problems += 1
                continue
            }
            let traces: (SessionTrace, SessionTrace)
            do {
                traces = (try SessionTrace.read(path: a), try SessionTrace.read(path: b))
            } catch {
                console.err("speech-harness trace diff: \(error)")
                cases.append(
                    .init(
                        classname: classname, name: name, seconds: 0,
                        outcome: .error(message: "\(error)", details: "\(error)")))
                compared.append(.init(name: name, outcome: .failure(TraceDiffProblem("\(error)"))))
                problems += 1
                continue
            }
            let comparison = TraceComparison.compare(traces.0, traces.1, tolerances: tolerances)
            compared.append(.init(name: name, outcome: .success(comparison)))
            let semantic = comparison.differences.filter { $0.kind == .semantics }
            console.out(
                "\(name): \(comparison.differences.isEmpty ? "no differences" : "\(comparison.differences.count) difference\(comparison.differences.count == 1 ? "" : "s")")"
                    + (semantic.isEmpty ? "" : ", \(semantic.count) semantic"))
            for difference in comparison.differences { console.out("  \(difference)") }
            if comparison.failed { problems += 1 }
            cases.append(
                .init(
                    classname: classname, name: comparison.scenario, seconds: 0,
                    properties: comparison.differences.filter { $0.kind != .semantics }.map {
                        ("\($0.kind.rawValue) \($0.clause)", $0.detail)
                    },
                    outcome: semantic.isEmpty
                        ? .passed
                        : .failure(
                            message: "\(semantic.count) semantic difference\(semantic.count == 1 ? "" : "s")",
                            details: semantic.map(\.description).joined(separator: "\n"))))
        }
        if let junit = arguments[Self.junit] {
            try JUnitWriter.write(
                JUnitReport(
                    name: "speech-harness trace diff",
                    suites: [JUnitReport.Suite(name: "trace-diff", timestamp: Date(), cases: cases)]), to: junit)
            let invalid = JUnitWriter.validate(path: junit)
            if !invalid.isEmpty { throw ReportError.invalid(path: junit, problems: invalid) }
        }
        if let file = arguments[Self.html] {
            let (_, page, links) = ReportLink.placing(file, title: "Trace diff")
            try ReportFile.write(
                TraceDiffReport.html(compared, first: first, second: second, links: links, page: page), to: file)
        }
        console.out("\(pairs.count) trace\(pairs.count == 1 ? "" : "s") compared, \(problems) with problems")
        return problems == 0 ? 0 : 1
    }

    /// The traces to compare: two files, or the `.jsonl` files of two folders paired by name.
    static func pairs(_ first: String, _ second: String, command: String) throws -> [(String, String?, String?)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: first, isDirectory: &isFolder) else {
            throw UsageError(message: "no such file or folder '\(first)'", command: command)
        }
        guard isFolder.boolValue else {
            return [(URL(fileURLWithPath: first).lastPathComponent, first, second)]
        }
        func names(_ folder: String) -> Set<String> {
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".jsonl") }
            )
        }
        let (a, b) = (names(first), names(second))
        guard !a.isEmpty || !b.isEmpty else {
            throw UsageError(message: "no .jsonl traces in '\(first)' or '\(second)'", command: command)
        }
        return a.union(b).sorted().map { name in
            (name, a.contains(name) ? first + "/" + name : nil, b.contains(name) ? second + "/" + name : nil)
        }
    }
}

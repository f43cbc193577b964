import Corpus
import Foundation
import Metrics
import MigrationDiff
import Records
import Reports
import SpeechCore

/// `speech-harness migrate diff`: old API against new API, same engine, same audio.
enum MigrateDiffCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "migrate diff",
            summary:
                "Run each utterance through the SFSpeechRecognizer API and SpeechAnalyzer on one engine; report what changes.",
            options: [
                engine.spec, manifest.spec, oldProgram.spec, newProgram.spec, oldArgument.spec, newArgument.spec,
                programTimeout.spec, split.spec,
                limit.spec, chunkMS.spec, serverRequests.spec, fastResults.spec, timeTolerance.spec, gates.spec,
                junit.spec, markdown.spec, json.spec, html.spec,
            ],
            details: """
                Compared per utterance: final transcripts (aligned, legacy as the reference), word times, display \
                updates and revisions of shown text, the order of partial/final/error events, and behaviours one side \
                has alone (the emulated one-minute limit, 'no speech detected'). Differences a user would notice (other \
                final words, an error on one side, a lost tail, the one-minute cut) fail; the new API's documented ones \
                (earlier finals, fewer revisions, another update cadence, moved word times: metrics finalDelay, \
                extraRevisions, extraUpdates, maximumTimeShift) pass with their figures unless --gates bounds them. \
                With --old-program and --new-program the two sides are programs of the team's own, compiled against \
                `import Speech`: each runs once per utterance with SPEECH_HARNESS_MICROPHONE set to it (fast pacing, \
                the engine stopping 1 s after the recording), SPEECH_HARNESS_ENGINE set to the engine, and \
                SPEECH_HARNESS_TRACE recording what the speech APIs showed it; the old program's trace is compared \
                as the legacy side, the new one's as the analyzer side. \
                Where the manifest has word times, each side's lost tail is counted: reference words of the last \
                2 s that no final result holds (a program that stops without finalizing loses them). \
                Exit status: 0 nothing fails, 1 something fails or could not be run, 2 usage error.
                """,
            run: { try await run("migrate diff", $0, $1) })
    ]

    static let engine = Option.required(
        "engine", value: "E", help: "Engine id behind both APIs (see 'speech-harness engines').")
    static let manifest = Option.required("manifest", value: "M", help: "Manifest of the utterances.")
    static let oldProgram = Option.text(
        "old-program", value: "path",
        help: "Instead of the built-in emulations: the app's old program (e.g. its SFSpeechRecognizer controller) …")
    static let newProgram = Option.text(
        "new-program", value: "path",
        help: "… and its new one, each run on the virtual microphone playing every utterance, traced and compared.")
    static let oldArgument = Option.texts(
        "old-argument", value: "arg", help: "An argument for the old program (repeatable, in order).")
    static let newArgument = Option.texts(
        "new-argument", value: "arg", help: "An argument for the new program (repeatable, in order).")
    static let programTimeout = Option.positive(
        "program-timeout", value: "s", help: "Seconds a program may take for one utterance (default 120).")
    static let split = Option.choice("split", Utterance.Split.self, help: "Only utterances of this split.")
    static let limit = Option.integer("limit", 1...Int.max, value: "n", help: "At most n utterances.")
    static let chunkMS = Option.integer(
        "chunk-ms", 1...60_000, value: "ms", help: "Buffer duration both sides receive (default 100).")
    static let serverRequests = Option.flag(
        "server-requests", help: "Legacy requests as server requests (one-minute limit emulated); default on-device.")
    static let fastResults = Option.flag(
        "fast-results", help: "The analyzer side also asks for .fastResults (default: .volatileResults only).")
    static let timeTolerance = Option.positive(
        "time-tolerance", value: "s", help: "Word time shift still counted as the same (default 0.05).")
    static let gates = Option.text(
        "gates", value: "file",
        help:
            "Bounds on expected differences: the file's 'migrateDiff' list, e.g. [{\"metric\": \"finalDelay\", \"max\": 0.5}]."
    )
    static let junit = Option.text(
        "junit", value: "file",
        help:
            "Write JUnit XML here: a case per utterance, failing on a difference a user would notice or a breached gate."
    )
    static let markdown = Option.text("markdown", value: "file", help: "Write a Markdown summary here.")
    static let json = Option.text("json", value: "file", help: "Write every trace and diff as JSON here.")
    static let html = Option.text(
        "html", value: "file",
        help:
            "Write a page of the differing utterances here (both sides' alignment and timelines, the audio), linked with the report pages in its folder."
    )

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let id = arguments[Self.engine], manifest = arguments[Self.manifest]
        guard HarnessContext.current.engines.knows(id) else {
            throw UsageError(
                message:
                    "unknown engine '\(id)'; known: \(HarnessContext.current.engines.knownNames.joined(separator: ", "))",
                command: path)
        }
        let chunkMS = arguments[Self.chunkMS] ?? 100
        let limit = arguments[Self.limit] ?? Int.max
        let tolerance = arguments[Self.timeTolerance] ?? 0.05
        let split = arguments[Self.split]

        let load = ManifestValidator().validate(ManifestReader.load(path: manifest))
        var problems = load.issues.map(\.description)
        let utterances = Array(load.utterances.filter { $0.isIncluded(in: split) }.prefix(limit))
        let root = load.root
        var programs: ProgramDiff?
        switch (arguments[Self.oldProgram], arguments[Self.newProgram]) {
        case (let old?, let new?):
            let timeout = arguments[Self.programTimeout] ?? 120
            programs = ProgramDiff(
                oldProgram: [old] + arguments[Self.oldArgument], newProgram: [new] + arguments[Self.newArgument],
                engine: id, timeout: timeout, timeTolerance: tolerance)
        case (nil, nil): break
        default: throw UsageError(message: "--old-program and --new-program go together", command: path)
        }
        if programs == nil, !(arguments[Self.oldArgument].isEmpty && arguments[Self.newArgument].isEmpty) {
            throw UsageError(
                message: "--old-argument and --new-argument go with --old-program and --new-program", command: path)
        }
        if let programs {
            var diffs: [UtteranceDiff] = []
            for utterance in utterances {
                do {
                    diffs.append(
                        try programs.run(
                            id: utterance.id, microphone: "\(manifest)#\(utterance.id)",
                            audioSeconds: utterance.duration, reference: utterance.words ?? [],
                            policy: tailPolicy(utterance)))
                } catch {
                    problems.append("\(utterance.id): \(error)")
                }
            }
            return try report(
                diffs: diffs, problems: problems, engine: id, manifest: manifest, utterances: utterances, root: root,
                arguments, console, path)
        }
        let engine = try HarnessContext.current.engines.make(id)
        let runner = MigrationRun(
            engine: engine, chunkMilliseconds: chunkMS, serverRequests: arguments[Self.serverRequests],
            fastResults: arguments[Self.fastResults])
        var diffs: [UtteranceDiff] = []
        for utterance in utterances {
            do {
                diffs.append(
                    try await runner.run(
                        id: utterance.id, audioPath: ManifestValidator.resolve(utterance.audio, root: root),
                        locale: utterance.locale, timeTolerance: tolerance, reference: utterance.words ?? [],
                        policy: tailPolicy(utterance)))
            } catch {
                problems.append("\(utterance.id): \(error)")
            }
        }
        await engine.shutdown()
        return try report(
            diffs: diffs, problems: problems, engine: id, manifest: manifest, utterances: utterances, root: root,
            arguments, console, path)
    }

    /// How final words are set against the reference for the lost tail: digit strings by their
    /// digits however written, other speech by the English normaliser with oh = zero.
    static func tailPolicy(_ utterance: Utterance) -> ScoringPolicy {
        utterance.task == "digits" ? .digits : ScoringPolicy(normalizer: .english, equivalences: .ohIsZero)
    }

    /// Prints, writes the reports, and gives the exit status.
    static func report(
        diffs: [UtteranceDiff], problems: [String], engine id: String, manifest: String, utterances: [Utterance],
        root: String,
        _ arguments: ParsedArguments, _ console: Console, _ path: String
    ) throws -> Int32 {
        let gates = try arguments[Self.gates].map { path in try MigrationGate.load(path: path) } ?? []
        let summary = MigrationSummary(
            engine: id, manifest: manifest, utterances: diffs, problems: problems, gates: gates)
        for diff in diffs where !diff.isSame {
            let failures = summary.failures(diff)
            console.out(
                "\(failures.isEmpty ? "EXPECTED" : "DIFF") \(diff.id): \((failures + diff.expected).joined(separator: "; "))"
            )
        }
        for problem in problems { console.err("speech-harness migrate diff: \(problem)") }
        let updates = summary.meanUpdates
        console.out(
            "\(diffs.count) utterances on \(id): \(summary.failing) fail, \(summary.differing - summary.noticeablyDiffering) differ only as the new API is expected to; final words S/D/I \(summary.transcript.substitutions)/\(summary.transcript.deletions)/\(summary.transcript.insertions) of \(summary.transcript.referenceLength); "
                + "display updates per utterance legacy \(String(format: "%.1f", updates.legacy)), analyzer \(String(format: "%.1f", updates.analyzer))"
                + (problems.isEmpty ? "" : "; \(problems.count) problems"))
        if let junit = arguments[Self.junit] {
            try JUnitWriter.write(MigrationReport.junit(summary), to: junit)
            let invalid = JUnitWriter.validate(path: junit)
            if !invalid.isEmpty { throw ReportError.invalid(path: junit, problems: invalid) }
        }
        if let markdown = arguments[Self.markdown] {
            try ReportFile.write(MigrationReport.markdown(summary), to: markdown)
        }
        if let json = arguments[Self.json] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try ReportFile.write(String(decoding: try encoder.encode(summary), as: UTF8.self), to: json)
        }
        if let file = arguments[Self.html] {
            let (directory, page, links) = ReportLink.placing(file, title: "Migration")
            let sources = Dictionary(
                utterances.map { utterance in
                    (
                        utterance.id,
                        MigrationPage.Source(
                            reference: utterance.reference, speaker: utterance.speaker, tier: utterance.tier ?? "",
                            words: utterance.words ?? [], audio: ManifestValidator.resolve(utterance.audio, root: root))
                    )
                }, uniquingKeysWith: { first, _ in first })
            try ReportFile.write(
                MigrationPage.render(summary, sources: sources, reportDirectory: directory, links: links, page: page),
                to: file)
        }
        return summary.failing == 0 && problems.isEmpty ? 0 : 1
    }
}

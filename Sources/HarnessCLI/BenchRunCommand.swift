import Benchmark
import Corpus
import Foundation
import Metrics
import Records
import Reports
import SpeechCore
import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// `speech-harness bench` (run engines over manifests) and `speech-harness merge` (combine shards).
enum BenchRunCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "bench",
            summary: "Measure engines on manifests: WER/CER with intervals, latency, stability, speed.",
            options: [
                Bench.engine.spec, Bench.manifest.spec, Bench.normalizer.spec, Bench.digitsNormalizer.spec,
                Bench.equivalence.spec, Bench.pacing.spec, Bench.jobs.spec, Bench.shard.spec, Bench.every.spec,
                Bench.limit.spec,
                Bench.split.spec, Bench.gates.spec, Bench.out.spec, Bench.resume.spec, Bench.wordTimes.spec,
                Bench.shareDecodes.spec,
            ] + whisperSettings.map { Option.setting($0).spec }
                + CorpusCommands.Manifests.specs + Pages.specs,
            details:
                "Writes DIR/results.json, DIR/junit/bench.xml, DIR/summary.md, DIR/index.html (figures and charts),\nDIR/explorer.html (every utterance: alignments, audio, timelines), with --baseline DIR/regressions.html,\nDIR/trn/ and the per-utterance store DIR/utterances.jsonl (appended as utterances finish). On SIGINT or SIGTERM the\nutterances in progress finish, reports are written for what is done, and the exit status is 130\n(143); --resume then runs only the rest. A record that cannot be written to the store (a full\ndisk) stops the run the same way: no utterance is started after it, the store keeps every whole\nrecord written before it, and the exit status is 3 (or the report's own error, naming the file,\nwhen the reports cannot be written either). Exit status otherwise: 0 clean, 1 gate breaches,\nfailed utterances or corpus problems, 2 usage error.",
            validate: { arguments throws(UsageError) in
                guard !arguments[Bench.engine].isEmpty else {
                    throw arguments.usage("give at least one --engine")
                }
            },
            run: bench),
        CommandSpec(
            path: "merge",
            summary: "Merge the outputs of sharded bench runs into one report (pooled over all shards).",
            options: [Merge.out.spec, Merge.gates.spec, Merge.utterancesOf.spec] + Pages.specs,
            arguments: [.oneOrMore("dir")],
            details:
                "Writes what bench writes, over every part's records: results.json, junit/bench.xml, summary.md,\nindex.html, explorer.html (with --baseline, regressions.html), trn/ and utterances.jsonl.",
            run: merge),
    ]

    /// The report-page options `bench` and `merge` share.
    enum Pages {
        static let baseline = Option.text(
            "baseline", value: "dir",
            help:
                "An earlier run's output folder: regressions.html lists the utterances whose errors rose or fell against it."
        )
        static let embedAudio = Option.flag(
            "embed-audio",
            help:
                "Inline clips of up to 512 KiB (48 MiB in all) in the pages so they travel alone; otherwise they link into the corpus."
        )

        static let specs = [baseline.spec, embedAudio.spec]
    }

    /// The options of `bench`.
    enum Bench {
        static let engine = Option.texts(
            "engine", value: "id",
            help: "Engine to run, adapters such as whisper-streaming included (see 'speech-harness engines').",
            aliases: ["backend"])
        static let manifest = Option.texts(
            "manifest", value: "file", help: "Manifest to run on (any supported format).", required: true)
        static let normalizer = Option.choice(
            "normalizer", TextNormalizer.self,
            help:
                "Text normaliser for scoring: none, basic, english (default), whisper-en (Whisper's, as the Open ASR Leaderboard scores), whisper-basic or digits."
        )
        static let digitsNormalizer = Option.choice(
            "digits-normalizer", TextNormalizer.self,
            help:
                "Normaliser for utterances with task 'digits' (default digits: every digit counts once however it is written)."
        )
        static let equivalence = Option.text(
            "equivalence", value: "oh=zero|file",
            help:
                "Words scored as equal: the built-in oh=zero, or a 'a => b' file (not needed with the digits normaliser)."
        )
        static let pacing = Option.choice("pacing", Pacing.self, help: "How audio arrives (default simulated).")
        static let jobs = Option.integer("jobs", 1...64, value: "n", help: "Utterances run in parallel (default 1).")
        static let shard = Option.text(
            "shard", value: "i/n",
            help:
                "Run shard i of n (0-based); default from TEST_SHARD_INDEX/TEST_TOTAL_SHARDS or CI_NODE_INDEX/CI_NODE_TOTAL."
        )
        static let every = Option.integer(
            "every", 1...10_000_000, value: "n",
            help:
                "Every nth utterance of each manifest (after --split, before --limit): a sample across voices where a manifest is ordered by voice."
        )
        static let limit = Option.integer(
            "limit", 1...10_000_000, value: "n", help: "At most n utterances per manifest.")
        static let split = Option.choice("split", Utterance.Split.self, help: "Only utterances of this split.")
        static let gates = Option.text(
            "gates", value: "file", help: "Thresholds (JSON); breaches are JUnit failures and exit status 1.")
        static let out = Option.text("out", value: "dir", help: "Output folder (default Reports/bench).")
        static let resume = Option.flag(
            "resume", help: "Keep the records already in the output folder and run only the rest.")
        static let wordTimes = Option.flag(
            "word-times",
            help:
                "Transcribers ask for word times (audioTimeRange), kept with each record's final words (hypothesisWords); off by default, as scoring does not use them and Whisper pays about 2.5x for them."
        )
        static let shareDecodes = Option.flag(
            "share-decodes",
            help:
                "Adapters over the same engine (streaming policies over one Whisper) share its answers to identical calls: a call already answered is not made again, and its answer keeps the CPU time measured then, so compute and simulated latencies are unchanged; wall times of answers from memory are not measurements."
        )
    }

    /// The options of `merge`.
    enum Merge {
        static let out = Option.required("out", value: "dir", help: "Where to write the merged report.")
        static let gates = Option.text("gates", value: "file", help: "Thresholds to check on the merged figures.")
        static let utterancesOf = Option.texts(
            "utterances-of", value: "dir",
            help:
                "Keep only the records of utterances (manifest and id) that this run holds (repeatable): one engine's full-tier run joins a run on fewer utterances without decoding them again."
        )
    }

    /// `--baseline` and `--embed-audio`; a baseline that cannot be read is a usage error before any work.
    static func pageOptions(
        _ arguments: ParsedArguments, command: String, console: Console
    ) throws -> BenchReports.PageOptions {
        var options = BenchReports.PageOptions(embedAudio: arguments[Pages.embedAudio])
        if let directory = arguments[Pages.baseline] {
            let path = directory + "/utterances.jsonl"
            guard FileManager.default.fileExists(atPath: path) else {
                throw UsageError(
                    message: "--baseline: \(path): no such file (give the output folder of an earlier bench or merge)",
                    command: command)
            }
            let stored = RecordStore(path: path).read()
            for issue in stored.issues(path: path) {
                console.err("speech-harness \(command): baseline: \(issue.message)")
            }
            options.baseline = (stored.records, directory)
        }
        return options
    }

    /// `--equivalence`: the built-in oh=zero, or a mapping file.
    static func equivalences(_ value: String?, command: String) throws -> EquivalenceMap? {
        guard let value else { return nil }
        if value == EquivalenceMap.ohIsZero.name { return .ohIsZero }
        guard let text = try? String(contentsOfFile: value, encoding: .utf8) else {
            throw UsageError(message: "--equivalence: cannot read '\(value)'", command: command)
        }
        return try EquivalenceMap.parse(text, name: (value as NSString).lastPathComponent)
    }

    /// The scoring policies of a run: for most utterances, and for those of the digits task.
    static func policies(
        _ arguments: ParsedArguments, command: String
    ) throws -> (text: ScoringPolicy, digits: ScoringPolicy) {
        let text = arguments[Bench.normalizer] ?? .english
        let digits = arguments[Bench.digitsNormalizer] ?? .digits
        let equivalences = try equivalences(arguments[Bench.equivalence], command: command)
        // Equivalences map words, and the digits normaliser has already made every digit one word.
        return (
            ScoringPolicy(normalizer: text, equivalences: equivalences),
            ScoringPolicy(normalizer: digits, equivalences: digits == .digits ? nil : equivalences)
        )
    }

    /// Runs the bench in the current context with the Whisper settings its options choose (typed,
    /// over the environment's).
    static func bench(_ arguments: ParsedArguments, _ console: Console) async throws -> Int32 {
        let settings = try whisperSettings(arguments, command: "bench")
        return try await run(arguments, console, context: HarnessContext.current.with(\.whisperSettings, settings))
    }

    static func run(_ arguments: ParsedArguments, _ console: Console, context: HarnessContext) async throws -> Int32 {
        let command = "bench"
        let engines = arguments[Bench.engine], manifests = arguments[Bench.manifest]
        for id in engines where !context.engines.knows(id) {
            throw UsageError(
                message: "unknown engine '\(id)'; known: \(context.engines.knownNames.joined(separator: ", "))",
                command: command)
        }
        let policies = try policies(arguments, command: command)
        var plan = BenchPlan(engines: engines, manifests: manifests, policy: policies.text)
        plan.digitsPolicy = policies.digits
        if let pacing = arguments[Bench.pacing] { plan.pacing = pacing }
        plan.jobs = arguments[Bench.jobs] ?? 1
        guard let shard = Shard.parse(arguments[Bench.shard]) else {
            throw UsageError(
                message: "--shard expects i/n with 0 ≤ i < n, got '\(arguments[Bench.shard] ?? "")'", command: command
            )
        }
        plan.shard = shard
        plan.every = arguments[Bench.every]
        if let limit = arguments[Bench.limit] {
            plan.limit = limit
        }
        plan.split = arguments[Bench.split]
        plan.wordTimes = arguments[Bench.wordTimes]
        plan.sharesDecodes = arguments[Bench.shareDecodes]
        plan.manifestOptions = try CorpusCommands.manifestOptions(arguments, command: command)
        let gates = try arguments[Bench.gates].map(GateConfiguration.load)
        let pages = try pageOptions(arguments, command: command, console: console)
        let out = arguments[Bench.out] ?? "Reports/bench"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let storePath = out + "/utterances.jsonl"
        if !arguments[Bench.resume], FileManager.default.fileExists(atPath: storePath) {
            // A store that cannot be removed would mix an old run's records into this one.
            try FileManager.default.removeItem(atPath: storePath)
        }
        let store = RecordStore(path: storePath)
        let interactive = isatty(STDERR_FILENO) != 0
        let interrupt = InterruptSignal { number in
            console.err(
                "\nspeech-harness bench: \(number == SIGINT ? "interrupted" : "terminated"); finishing the utterances "
                    + "in progress, then writing reports (again to stop at once; --resume continues later)")
        }
        defer { interrupt.cancel() }
        let runner = BenchRunner(
            plan: plan, store: store, context: context,
            progress: { line in
                if interactive { console.err("\u{1B}[2K\r" + line.prefix(150)) } else { console.err(line) }
            }, isInterrupted: { interrupt.received != nil })
        let outcome = await runner.run()
        if let failure = outcome.storeFailure {
            console.err(
                "speech-harness bench: stopped early: \(failure). The store keeps every record written before; "
                    + "the \(outcome.unsaved.count) measured record(s) it could not take are in this run's reports only."
            )
        }
        let stored = store.read()
        let status = try finish(
            records: stored.records + outcome.unsaved, issues: outcome.issues + stored.issues(path: storePath),
            gates: gates,
            plan: plan, out: out, pages: pages, console: console, workerPeakMemory: outcome.workerPeakMemory)
        if let number = interrupt.received {
            console.err(
                "speech-harness bench: stopped early; reports cover the finished utterances. Run again with --resume to complete."
            )
            return 128 + number
        }
        return outcome.storeFailure == nil ? status : 3
    }

    /// The Whisper settings that have an option of `bench`.
    static let whisperSettings = HarnessSettings.all.filter { $0.group == .whisper && $0.option != nil }

    /// The Whisper settings of this run: the environment's (and `.speech-harness.json`'s), with
    /// each `--whisper-*` option given in its place. A bad value is a usage error naming the option.
    static func whisperSettings(_ arguments: ParsedArguments, command: String) throws -> WhisperWorker.Settings {
        var settings: WhisperWorker.Settings
        do {
            settings = try WhisperWorker.Settings.fromEnvironment()
        } catch {
            throw UsageError(message: error.description, command: command)
        }
        func chosen<Value>(_ setting: Setting<Value>) throws -> Value? {
            guard let option = setting.option, let text = arguments[Option.setting(setting)] else { return nil }
            do {
                return try setting.parse(text)
            } catch {
                throw UsageError(message: "--\(option) '\(text)': expected \(setting.allowed)", command: command)
            }
        }
        if let value = try chosen(HarnessSettings.whisperComputeType) { settings.computeType = value }
        if let value = try chosen(HarnessSettings.whisperBeamSize) { settings.beamSize = value }
        if let value = try chosen(HarnessSettings.whisperThreads) { settings.threads = value }
        if let value = try chosen(HarnessSettings.whisperSeed) { settings.seed = value }
        return settings
    }

    static func finish(
        records: [UtteranceRecord], issues: [BenchIssue], gates: GateConfiguration?, plan: BenchPlan?,
        out: String, pages: BenchReports.PageOptions, console: Console, workerPeakMemory: [String: [Int]]? = nil
    ) throws -> Int32 {
        let results = BenchResults.assemble(
            records: records, issues: issues, gates: gates, plan: plan,
            peakRSSBytes: ProcessMemory.peakResidentBytes(), workerPeakMemory: workerPeakMemory)
        try BenchReports.writeAll(results: results, records: records, to: out, pages: pages)
        console.out(BenchReports.markdown(results))
        console.out(
            "reports written to \(out)/ (results.json, junit/bench.xml, summary.md, index.html, explorer.html"
                + (pages.baseline == nil ? "" : ", regressions.html") + ", trn/)")
        return results.isClean ? 0 : 1
    }

    static func merge(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let out = arguments[Merge.out]
        let pages = try pageOptions(arguments, command: "merge", console: console)
        var kept: Set<ShardMerge.UtteranceKey>?
        for directory in arguments[Merge.utterancesOf] {
            do {
                kept = (kept ?? []).union(try ShardMerge.utterances(of: directory))
            } catch {
                throw arguments.usage("--utterances-of \(directory): \(error)")
            }
        }
        var merge = ShardMerge()
        do {
            for directory in arguments.positionals { try merge.add(part: directory, keeping: kept) }
        } catch {
            console.err("speech-harness merge: \(error)")
            return 1
        }
        if merge.leftOut > 0 {
            console.err("speech-harness merge: \(merge.leftOut) records of other utterances left out (--utterances-of)")
        }
        try merge.writeStore(in: out)
        return try finish(
            records: merge.records, issues: merge.issues,
            gates: try arguments[Merge.gates].map(GateConfiguration.load),
            plan: nil, out: out, pages: pages, console: console)
    }
}

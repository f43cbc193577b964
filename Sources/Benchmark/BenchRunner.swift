import Corpus
import EngineCore
import Foundation
import Metrics
import Records
import SpeechCore

/// Which share of the work this process does: utterance `k` of a manifest belongs to shard
/// `hash(id) mod count`, so shards are stable across runs and machines.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public static let whole = Shard(index: 0, count: 1)

    public func contains(_ id: String) -> Bool {
        count <= 1 || Int(Shard.stableHash(id) % UInt64(count)) == index
    }

    /// `i/n` (0-based), or from Bazel's TEST_SHARD_INDEX/TEST_TOTAL_SHARDS or GitLab's
    /// CI_NODE_INDEX/CI_NODE_TOTAL (1-based) in the environment.
    public static func parse(
        _ text: String?, environment: [String: String] = HarnessContext.current.environment.variables
    ) -> Shard? {
        if let text {
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] > 0, (0..<parts[1]).contains(parts[0]) else { return nil }
            return Shard(index: parts[0], count: parts[1])
        }
        if let i = environment["TEST_SHARD_INDEX"].flatMap(Int.init),
            let n = environment["TEST_TOTAL_SHARDS"].flatMap(Int.init), n > 0
        {
            return Shard(index: i, count: n)
        }
        if let i = environment["CI_NODE_INDEX"].flatMap(Int.init),
            let n = environment["CI_NODE_TOTAL"].flatMap(Int.init), n > 0
        {
            return Shard(index: i - 1, count: n)
        }
        return .whole
    }

    static func stableHash(_ text: String) -> UInt64 { StableHash.fnv1a(text) }

    public var description: String { "\(index)/\(count)" }
}

/// What to benchmark and how.
public struct BenchPlan: Sendable {
    public var engines: [String]
    public var manifests: [String]
    /// How utterances are scored, except those of the digits task.
    public var policy: ScoringPolicy
    /// How utterances with `task: digits` are scored (every digit once, however written, by
    /// default); nil scores them with `policy`.
    public var digitsPolicy: ScoringPolicy? = .digits
    public var pacing: Pacing = .simulated
    public var jobs: Int = 1
    public var shard: Shard = .whole
    public var chunkMilliseconds = 100
    /// Every this many-th utterance of each manifest (after the split and the shard, before
    /// `limit`): a sample across a manifest ordered by voice or speaker, where `limit` takes the first.
    public var every: Int?
    /// At most this many utterances per manifest (after sharding), in manifest order.
    public var limit: Int?
    /// Only utterances of this split (e.g. `test`), when set.
    public var split: Utterance.Split?
    /// Whether transcribers ask for word times (see ``UtteranceRun/wordTimes``).
    public var wordTimes = false
    /// Whether adapters over the same engine share its answers to identical calls
    /// (`MemoizingEngine.sharingInnermost(_:)`): a call already answered is not made again and
    /// its answer keeps the CPU time measured then, so compute figures and the latencies simulated
    /// from them are unchanged, while the wall time of a call answered from memory is not a
    /// measurement. (With more than one job, two adapters on one utterance at once may both make it.)
    public var sharesDecodes = false
    /// How the manifests are read.
    public var manifestOptions = ManifestOptions()

    public init(engines: [String], manifests: [String], policy: ScoringPolicy) {
        self.engines = engines
        self.manifests = manifests
        self.policy = policy
    }

    /// The policy `utterance` is scored with.
    public func policy(for utterance: Utterance) -> ScoringPolicy {
        utterance.task == "digits" ? digitsPolicy ?? policy : policy
    }
}

/// Runs engines over manifests with bounded parallelism, appending each utterance's record to
/// the store as it finishes; skips what the store already holds (resume).
public struct BenchRunner: Sendable {
    public var plan: BenchPlan
    public var store: RecordStore
    public var progress: @Sendable (String) -> Void
    /// Where the plan's engines are made, with the settings (Whisper's) they are made with.
    public var context: HarnessContext

    /// Polled between utterances: once true, no new utterance starts (those running finish).
    let isInterrupted: @Sendable () -> Bool

    public init(
        plan: BenchPlan, store: RecordStore, context: HarnessContext = .current,
        progress: @escaping @Sendable (String) -> Void = { _ in },
        isInterrupted: @escaping @Sendable () -> Bool = { false }
    ) {
        self.plan = plan
        self.store = store
        self.context = context
        self.progress = progress
        self.isInterrupted = isInterrupted
    }

    /// What a run found besides the records.
    public struct Outcome: Sendable {
        /// Manifest and engine problems (utterance failures are in the records).
        public var issues: [BenchIssue] = []
        /// Per worker engine (by name): the peak resident memory of each of its processes, bytes.
        public var workerPeakMemory: [String: [Int]] = [:]
        /// Records measured but not written to the store (each has an issue saying why); reports
        /// must add them to what the store holds, or they are lost.
        public var unsaved: [UtteranceRecord] = []
        /// The first failed store write, which stopped the run: no utterance was started after it
        /// (those in progress finished and are in ``unsaved``).
        public var storeFailure: RecordStore.StoreError?
    }

    /// Runs the plan.
    public func run() async -> Outcome {
        var issues: [BenchIssue] = []
        var workerMemory: [String: [Int]] = [:]
        var work: [(engine: String, manifest: String, utterance: Utterance, audio: String)] = []
        for manifest in plan.manifests {
            let load = ManifestReader.load(path: manifest, options: plan.manifestOptions)
            issues += load.issues.map { BenchIssue(engine: nil, manifest: manifest, message: $0.description) }
            for warning in load.warnings { progress("warning: \(warning)") }
            var utterances = load.utterances.filter { plan.shard.contains($0.id) && $0.isIncluded(in: plan.split) }
            if let every = plan.every {
                utterances = utterances.enumerated().filter { $0.offset % every == 0 }.map(\.element)
            }
            if let limit = plan.limit { utterances = Array(utterances.prefix(limit)) }
            for engine in plan.engines {
                for utterance in utterances {
                    work.append(
                        (engine, manifest, utterance, ManifestValidator.resolve(utterance.audio, root: load.root)))
                }
            }
        }
        // Engines are made once and shared by the jobs (a worker engine keeps a pool of processes,
        // one per session running at a time); records carry the engine's name with its settings.
        var engines: [String: any RecognitionEngine] = [:]
        var unmade: [String: String] = [:]
        for id in plan.engines where engines[id] == nil && unmade[id] == nil {
            do { engines[id] = try context.engines.make(id, in: context) } catch {
                unmade[id] = "\(error)"
                issues.append(BenchIssue(engine: id, manifest: "*", message: "\(error)"))
            }
        }
        if plan.sharesDecodes {
            let ids = engines.keys.sorted()
            for (id, engine) in zip(ids, MemoizingEngine.sharingInnermost(ids.map { engines[$0]! })) {
                engines[id] = engine
            }
        }
        // An engine that cannot be made fails each of its utterances (a JUnit error apiece), so
        // a dashboard counts what was not measured.
        let unsaved = Locked<[(UtteranceRecord, BenchIssue)]>([])
        // A store that cannot be written (a full disk) stops the run: what is measured after it
        // could only live in memory, and every later write would fail the same way.
        let storeFailure = Locked<RecordStore.StoreError?>(nil)
        let keep = { @Sendable (record: UtteranceRecord, manifest: String, error: RecordStore.StoreError) in
            let issue = BenchIssue(
                engine: record.engine, manifest: manifest, message: "\(error); the record is in this run's reports only"
            )
            unsaved.withLock { $0.append((record, issue)) }
            storeFailure.withLock { if $0 == nil { $0 = error } }
        }
        for item in work {
            guard let reason = unmade[item.engine] else { continue }
            var record = UtteranceRecord(
                engine: item.engine, utterance: item.utterance, manifest: item.manifest, audio: item.audio,
                policy: plan.policy(for: item.utterance))
            record.error = "engine '\(item.engine)' could not be made: \(reason)"
            record.score(plan.policy(for: item.utterance))
            do { try store.append(record) } catch { keep(record, item.manifest, error) }
        }
        work.removeAll { engines[$0.engine] == nil }
        let done = store.completedKeys()
        work.removeAll {
            done.contains(
                UtteranceRecord.key(engine: engines[$0.engine]!.name, manifest: $0.manifest, id: $0.utterance.id))
        }
        progress("\(work.count) utterance runs to do (\(done.count) already in the store)")
        let queue = WorkQueue(items: work)
        let counter = ProgressCounter(total: work.count)
        let shared = engines
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, plan.jobs) {
                group.addTask {
                    while !isInterrupted(), storeFailure.withLock({ $0 == nil }), let item = await queue.next() {
                        let engine = shared[item.engine]!
                        let run = UtteranceRun(
                            engine: engine, pacing: plan.pacing, chunkMilliseconds: plan.chunkMilliseconds,
                            policy: plan.policy(for: item.utterance), wordTimes: plan.wordTimes)
                        var record = await run.run(item.utterance, audioPath: item.audio, manifest: item.manifest)
                        if plan.sharesDecodes && MemoizingEngine.statistics(of: engine) != nil {
                            record.sharedDecodes = true
                        }
                        do throws(RecordStore.StoreError) { try store.append(record) } catch {
                            keep(record, item.manifest, error)
                        }
                        let n = await counter.increment()
                        progress(
                            "[\(n)/\(counter.total)] \(record.engine) \(item.utterance.id): WER \(String(format: "%.2f", record.words.errorRate))"
                                + (record.error.map { " ERROR \($0.prefix(120))" } ?? ""))
                    }
                }
            }
        }
        var stopped: [ObjectIdentifier: [Int]] = [:]
        var sharing: Set<String> = []
        for engine in engines.values.sorted(by: { $0.name < $1.name }) {
            if plan.sharesDecodes, let (fromMemory, made) = MemoizingEngine.statistics(of: engine),
                sharing.insert(engine.innermost.name).inserted
            {
                progress(
                    "\(engine.innermost.name): \(fromMemory) calls answered from memory, \(made) made (decodes shared)")
            }
            // A streaming policy's worker is the one under it; its memory is the policy's (the
            // policies sharing decodes share it).
            guard let processes = engine.processes else { continue }
            let usage: [Int]
            if let known = stopped[ObjectIdentifier(processes)] {
                usage = known
            } else {
                usage = await processes.shutdown()
                stopped[ObjectIdentifier(processes)] = usage
            }
            if !usage.isEmpty {
                let peaks = usage.map { String(format: "%.0f MiB", Double($0) / 1_048_576) }.joined(separator: ", ")
                progress("\(engine.name): \(usage.count) worker process(es), peak resident memory \(peaks)")
            }
            workerMemory[engine.name] = usage
        }
        let lost = unsaved.withLock { $0 }
        return Outcome(
            issues: issues + lost.map(\.1), workerPeakMemory: workerMemory, unsaved: lost.map(\.0),
            storeFailure: storeFailure.withLock { $0 })
    }
}

/// Hands out work items to parallel jobs.
actor WorkQueue<Item: Sendable> {
    private var items: [Item]
    private var index = 0
    init(items: [Item]) { self.items = items }
    func next() -> Item? {
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }
}

actor ProgressCounter {
    nonisolated let total: Int
    private var done = 0
    init(total: Int) { self.total = total }
    func increment() -> Int {
        done += 1
        return done
    }
}

/// The append-only store of utterance records (JSON lines). Each record is written and flushed as
/// it finishes; a torn last line from a killed run is reported, not read, on reading.
public final class RecordStore: Sendable {
    public let path: String
    /// Serializes appends from parallel jobs.
    private let writing = Locked(())

    public init(path: String) { self.path = path }

    /// Why a record could not be kept.
    public enum StoreError: Error, CustomStringConvertible, Equatable {
        case encode(path: String, key: String, reason: String)
        case write(path: String, reason: String)

        public var description: String {
            switch self {
            case .encode(let path, let key, let reason): "\(path): cannot encode the record of \(key): \(reason)"
            case .write(let path, let reason): "\(path): cannot append a record: \(reason)"
            }
        }
    }

    /// Appends one record and flushes it to disk.
    public func append(_ record: UtteranceRecord) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(record) } catch {
            throw .encode(path: path, key: record.key, reason: "\(error)")
        }
        try writing.withLock { _ throws(StoreError) in
            if !FileManager.default.fileExists(atPath: path),
                !FileManager.default.createFile(atPath: path, contents: nil)
            {
                throw .write(path: path, reason: "cannot create the file")
            }
            guard let handle = FileHandle(forUpdatingAtPath: path) else {
                throw .write(path: path, reason: "cannot open the file for writing")
            }
            defer { try? handle.close() }
            var end: UInt64?
            do {
                // A run killed mid-write leaves a partial last line: end it, so it stays one
                // unreadable line instead of spoiling this record too.
                var prefix = Data()
                let tail = try handle.seekToEnd()
                end = tail
                if tail > 0 {
                    try handle.seek(toOffset: tail - 1)
                    if try handle.read(upToCount: 1) != Data("\n".utf8) { prefix = Data("\n".utf8) }
                    _ = try handle.seekToEnd()
                }
                try handle.write(contentsOf: prefix + data + Data("\n".utf8))
                try handle.synchronize()
            } catch {
                // A write cut short (a full disk) must not leave half a record: the store goes back
                // to the last whole one.
                if let end { try? handle.truncate(atOffset: end) }
                throw .write(path: path, reason: FileWriting.reason(error))
            }
        }
    }

    /// What the store holds: every complete record (later records for the same key replace
    /// earlier ones), and the lines that are not a record, by number.
    public struct Contents: Sendable {
        public var records: [UtteranceRecord]
        public var unreadableLines: [Int]

        /// The unreadable lines as problems of the run, one message per store.
        public func issues(path: String) -> [BenchIssue] {
            guard !unreadableLines.isEmpty else { return [] }
            let lines =
                unreadableLines.prefix(10).map(String.init).joined(separator: ", ")
                + (unreadableLines.count > 10 ? ", …" : "")
            return [
                BenchIssue(
                    engine: nil, manifest: path,
                    message: "\(unreadableLines.count) line(s) of the record store are not records (line \(lines)); "
                        + "a run stopped mid-write leaves one torn last line")
            ]
        }
    }

    public func read() -> Contents {
        guard let data = FileManager.default.contents(atPath: path) else {
            return Contents(records: [], unreadableLines: [])
        }
        var byKey: [String: UtteranceRecord] = [:]
        var order: [String] = []
        var unreadable: [Int] = []
        let decoder = JSONDecoder()
        for (number, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty {
            guard let record = try? decoder.decode(UtteranceRecord.self, from: Data(line)) else {
                unreadable.append(number + 1)
                continue
            }
            if byKey[record.key] == nil { order.append(record.key) }
            byKey[record.key] = record
        }
        return Contents(records: order.compactMap { byKey[$0] }, unreadableLines: unreadable)
    }

    /// Every complete record; see ``read()`` for the lines that are not.
    public func records() -> [UtteranceRecord] { read().records }

    public func completedKeys() -> Set<String> { Set(records().map(\.key)) }
}

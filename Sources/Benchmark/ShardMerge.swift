import Foundation
import Records

/// Combines the outputs of sharded `bench` runs into one: every shard's records (the first of
/// any repeated record), the problems each shard reported, optionally only the utterances other
/// runs hold, and the merged record store written where the report will be.
public struct ShardMerge: Sendable {
    /// An utterance, whichever engine ran it.
    public struct UtteranceKey: Hashable, Sendable {
        public var manifest: String
        public var id: String
        public init(_ record: UtteranceRecord) { (manifest, id) = (record.manifest, record.id) }
    }

    /// Why a merge cannot go on.
    public enum Failure: Error, CustomStringConvertible, Sendable, Equatable {
        /// A part (or a run named by `utterances(of:)`) has no record store.
        case noRecordStore(path: String)

        public var description: String {
            switch self {
            case .noRecordStore(let path): "\(path): no such file"
            }
        }
    }

    public private(set) var records: [UtteranceRecord] = []
    public private(set) var issues: [BenchIssue] = []
    /// Records left out because their utterance is not in the kept set.
    public private(set) var leftOut = 0
    private var keys = Set<String>()

    public init() {}

    /// The utterances a run's output folder holds.
    public static func utterances(of directory: String) throws(Failure) -> Set<UtteranceKey> {
        let path = directory + "/utterances.jsonl"
        guard FileManager.default.fileExists(atPath: path) else { throw .noRecordStore(path: path) }
        return Set(RecordStore(path: path).read().records.map(UtteranceKey.init))
    }

    /// Adds one shard's output folder; with `keeping`, only records of those utterances.
    public mutating func add(part directory: String, keeping kept: Set<UtteranceKey>? = nil) throws(Failure) {
        let path = directory + "/utterances.jsonl"
        guard FileManager.default.fileExists(atPath: path) else { throw .noRecordStore(path: path) }
        let stored = RecordStore(path: path).read()
        for record in stored.records {
            guard kept?.contains(UtteranceKey(record)) ?? true else {
                leftOut += 1
                continue
            }
            if keys.insert(record.key).inserted { records.append(record) }
        }
        issues += stored.issues(path: path)
        // The part's own problems (manifest and engine issues) are only in its results.
        let results = directory + "/results.json"
        guard let data = FileManager.default.contents(atPath: results) else { return }
        do {
            issues += try JSONDecoder().decode(BenchResults.self, from: data).issues
        } catch {
            issues.append(
                BenchIssue(
                    engine: nil, manifest: results,
                    message: "cannot read the part's results (its problems are not merged): \(error)"))
        }
    }

    /// Writes the merged records to `directory/utterances.jsonl`, replacing what is there.
    public func writeStore(in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let merged = RecordStore(path: directory + "/utterances.jsonl")
        if FileManager.default.fileExists(atPath: merged.path) {
            try FileManager.default.removeItem(atPath: merged.path)
        }
        for record in records { try merged.append(record) }
    }
}

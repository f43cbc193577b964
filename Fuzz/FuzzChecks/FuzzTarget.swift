import Foundation

/// One reader of files people hand the harness, with the contract every input must meet: the
/// reader returns, and what it refuses is a typed error naming the file (and the line or field
/// where the format has them). A violation is returned as text; the fuzzer turns it into a crash
/// so that libFuzzer keeps the input, a test into a failure.
public struct FuzzTarget: Sendable {
    public let name: String
    /// What the bytes stand for.
    public let summary: String
    /// The repository's own files this target's seed corpus starts from (paths under the
    /// package root, globbed by `scripts/fuzz`).
    public let seeds: [String]
    let run: @Sendable (_ bytes: [UInt8], _ scratch: Scratch) -> String?

    /// Runs one input; nil when the contract holds.
    public func check(_ bytes: [UInt8]) -> String? {
        let scratch = Scratch.current
        scratch.clear()
        return run(bytes, scratch)
    }

    /// Every target, in the order `scripts/fuzz` runs them.
    public static let all: [FuzzTarget] = [
        .audio, .manifest, .scenario, .sessionTrace, .workerReply, .configuration, .engineScript, .lintBaseline,
        .lintProject, .lintSource,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// A folder of this process's own where inputs become files (in memory when /dev/shm exists), so
/// that each reader meets the input as it meets a user's file: by path.
public final class Scratch: @unchecked Sendable {
    public let directory: String

    init() {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        directory = base + "/speech-harness-fuzz-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    static let current = Scratch()

    /// Writes `bytes` at `name` (folders made as needed); returns the full path.
    @discardableResult
    func write(_ name: String, _ bytes: some Collection<UInt8>) -> String {
        let path = directory + "/" + name
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func clear() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
}

/// The contract's common clause: an error's text names the file it is about.
func naming(_ path: String, _ error: any Error) -> String? {
    "\(error)".contains(path) ? nil : "an error that does not name \(path): \(error)"
}

/// Splits an input into up to `count` parts at zero bytes (for formats made of several files).
func parts(_ bytes: [UInt8], count: Int) -> [ArraySlice<UInt8>] {
    var result = Array(bytes.split(separator: 0, maxSplits: count - 1, omittingEmptySubsequences: false))
    while result.count < count { result.append([]) }
    return result
}

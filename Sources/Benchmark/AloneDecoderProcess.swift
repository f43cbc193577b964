import Foundation

/// An engine alone in a process of its own, the other side of an ``OverheadComparison``: it is
/// sent a file's path on a line and answers `seconds<TAB>transcript` on a line, the seconds being
/// its wall time in decoding that file, model load apart (scripts/overhead/ps_direct.c with `-`,
/// scripts/overhead/whisper_direct.py with `--serve`). Its diagnostics go to our standard error.
public final class AloneDecoderProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var command: String
        public var reason: String
        public var description: String { "alone decoder '\(command)': \(reason)" }
    }

    public let command: String
    private let process = Process()
    private let requests = Pipe()
    private let replies = Pipe()
    /// Reads block until the decoder answers: they wait here, not on the cooperative pool.
    private let queue = DispatchQueue(label: "speech-harness.alone-decoder")
    // Touched on `queue` only.
    private var unread = Data()

    /// A decoder that died would kill us with SIGPIPE on the next request; writes fail with EPIPE instead.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    public init(arguments: [String]) throws {
        _ = Self.ignoreBrokenPipes
        command = arguments.joined(separator: " ")
        guard let executable = arguments.first else { throw Failure(command: command, reason: "no command") }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        process.standardInput = requests
        process.standardOutput = replies
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { throw Failure(command: command, reason: "cannot start: \(error)") }
    }

    /// Decodes one file: the decoder's own time for it, and what it heard.
    public func decode(_ path: String) async throws -> (seconds: Double, transcript: String) {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in continuation.resume(with: Result { try exchange(path) }) }
        }
    }

    private func exchange(_ path: String) throws -> (seconds: Double, transcript: String) {
        guard !path.contains("\n") else { throw Failure(command: command, reason: "a path with a line break: \(path)") }
        do {
            try requests.fileHandleForWriting.write(contentsOf: Data((path + "\n").utf8))
        } catch {
            throw Failure(command: command, reason: "cannot send \(path): \(error)")
        }
        let line = try readLine(for: path)
        let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard let seconds = fields.first.flatMap({ Double($0) }), seconds >= 0 else {
            throw Failure(
                command: command, reason: "answered \"\(line.prefix(200))\" for \(path), not seconds<TAB>text")
        }
        return (seconds, fields.count > 1 ? String(fields[1]) : "")
    }

    private func readLine(for path: String) throws -> String {
        while true {
            if let newline = unread.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: unread[unread.startIndex..<newline], as: UTF8.self)
                unread.removeSubrange(unread.startIndex...newline)
                return line
            }
            let more = replies.fileHandleForReading.availableData
            guard !more.isEmpty else {
                throw Failure(command: command, reason: "ended without answering for \(path)")
            }
            unread.append(more)
        }
    }

    /// Ends the decoder: its input closes and it exits.
    public func close() {
        try? requests.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

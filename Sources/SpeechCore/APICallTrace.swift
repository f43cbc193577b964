import Foundation

/// What an Apple-style program was shown by the speech APIs, written as it happens to the file
/// named by `SPEECH_HARNESS_TRACE` (JSON lines), so `migrate diff` can compare two programs —
/// an old controller and a new one — on the same microphone input without touching their code.
public final class APICallTrace: Sendable {
    public typealias Word = TimedWord

    /// Formerly the trace's line; "record" names a run's measured result (`UtteranceRecord`).
    @available(*, deprecated, renamed: "Event")
    public typealias Record = Event

    /// One thing the program was shown: a line of the trace file.
    public struct Event: Codable, Sendable, Hashable {
        /// `legacy` (SFSpeechRecognizer) or `analyzer` (SpeechTranscriber).
        public var api: String
        /// `start` (a transcriber was made), `partial`, `final`, `error` or `end`.
        public var kind: String
        /// Seconds of audio the engine had processed.
        public var audioTime: Double
        /// Legacy: the whole best transcription; analyzer: this result's words.
        public var words: [Word]
        public var detail: String?

        public init(api: String, kind: String, audioTime: Double, words: [Word], detail: String? = nil) {
            self.api = api
            self.kind = kind
            self.audioTime = audioTime
            self.words = words
            self.detail = detail
        }
    }

    public static let variable = HarnessSettings.trace.variable
    /// The trace of this process; nil unless `SPEECH_HARNESS_TRACE` names a file.
    public static let current: APICallTrace? = HarnessSettings.trace.text(in: HarnessEnvironment.process.variables)
        .flatMap(APICallTrace.init(path:))

    public let path: String
    private let handle: Locked<FileHandle?>

    /// Opens (creates, or truncates) the trace file; a file that cannot be written is reported on
    /// standard error once and nothing is traced.
    public init?(path: String) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            FileHandle.standardError.write(
                Data("speech-harness: \(Self.variable)=\(path): cannot write the trace file\n".utf8))
            return nil
        }
        self.handle = Locked(handle)
    }

    /// Formerly wrote an event.
    @available(*, deprecated, renamed: "append(_:)")
    public func record(_ record: Event) { append(record) }

    /// Writes `event` as the trace's next line.
    public func append(_ event: Event) {
        guard let line = try? JSONEncoder().encode(event) else { return }
        handle.withLock { handle in
            do {
                try handle?.write(contentsOf: line + Data("\n".utf8))
            } catch {
                FileHandle.standardError.write(
                    Data("speech-harness: \(path): trace write failed: \(error); tracing stops\n".utf8))
                handle = nil
            }
        }
    }
}

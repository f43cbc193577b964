/// What went wrong reading, writing or converting audio, and with which file.
public enum AudioIOError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No file at the path.
    case fileNotFound(path: String)
    /// The file exists but cannot be opened or read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file has no bytes at all.
    case emptyFile(path: String)
    /// The file is not in any audio format the library reads (for example text named `.wav`).
    case notAudio(path: String, reason: String)
    /// The header promises more audio than the file holds, or the header itself is cut short.
    case truncated(path: String, reason: String)
    /// A well-formed audio file with no frames.
    case zeroFrames(path: String)
    /// A channel layout the harness does not reduce to mono (which channel holds the speech is ambiguous).
    case unsupportedChannelLayout(path: String, channels: Int)
    /// A format parameter is out of range (sample rate, channel count, raw encoding).
    case invalidFormat(path: String, reason: String)
    /// Writing failed.
    case writeFailed(path: String, reason: String)
    /// Sample-rate conversion failed.
    case conversionFailed(reason: String)
    /// Samples that are NaN or infinite: no engine can make sense of them.
    case nonFiniteSamples(path: String, frame: Int64)

    public var description: String {
        switch self {
        case .fileNotFound(let path): return "\(path): no such file"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .emptyFile(let path): return "\(path): file is empty (0 bytes)"
        case .notAudio(let path, let reason): return "\(path): not an audio file: \(reason)"
        case .truncated(let path, let reason): return "\(path): truncated: \(reason)"
        case .zeroFrames(let path): return "\(path): audio file contains no frames"
        case .unsupportedChannelLayout(let path, let channels):
            return "\(path): \(channels) channels; only mono and stereo are mixed down to mono"
        case .invalidFormat(let path, let reason): return "\(path): invalid audio format: \(reason)"
        case .writeFailed(let path, let reason): return "\(path): cannot write: \(reason)"
        case .conversionFailed(let reason): return "sample-rate conversion failed: \(reason)"
        case .nonFiniteSamples(let path, let frame): return "\(path): NaN or infinite sample at frame \(frame)"
        }
    }

    /// The file the error is about, when there is one.
    public var path: String? {
        switch self {
        case .fileNotFound(let p), .unreadable(let p, _), .emptyFile(let p), .notAudio(let p, _),
            .truncated(let p, _), .zeroFrames(let p), .unsupportedChannelLayout(let p, _),
            .invalidFormat(let p, _), .writeFailed(let p, _), .nonFiniteSamples(let p, _):
            return p
        case .conversionFailed: return nil
        }
    }
}

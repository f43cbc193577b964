/// A problem with one manifest entry, located by file and line (line 0: the file as a whole).
public struct ManifestIssue: Error, CustomStringConvertible, Sendable, Hashable {
    public enum Problem: Sendable, Hashable {
        case unreadableFile(String)
        case malformedJSON(String)
        case malformedCSV(String)
        case missingField(String)
        case wrongType(field: String, expected: String, found: String)
        case invalidValue(field: String, reason: String)
        case emptyReference
        case invalidText(String)
        case duplicateID(String, firstLine: Int)
        case audioMissing(String)
        case audioUnreadable(String)
        case durationMismatch(stated: Double, actual: Double)
        case pathOutsideRoot(String)
        case unsupported(String)
        /// A field the format does not read, ignored on `lines` lines (a warning).
        case unreadField(String, lines: Int, known: [String])
    }

    public var file: String
    public var line: Int
    public var utteranceID: String?
    public var problem: Problem

    public init(file: String, line: Int, utteranceID: String? = nil, problem: Problem) {
        self.file = file
        self.line = line
        self.utteranceID = utteranceID
        self.problem = problem
    }

    public var description: String {
        let place = line > 0 ? "\(file):\(line)" : file
        let subject = utteranceID.map { " [\($0)]" } ?? ""
        return "\(place):\(subject) \(problemText)"
    }

    var problemText: String {
        switch problem {
        case .unreadableFile(let reason): return "cannot read manifest: \(reason)"
        case .malformedJSON(let detail): return "malformed JSON: \(detail)"
        case .malformedCSV(let detail): return "malformed CSV: \(detail)"
        case .missingField(let name): return "missing field '\(name)'"
        case .wrongType(let field, let expected, let found):
            return "field '\(field)': expected \(expected), got \(found)"
        case .invalidValue(let field, let reason): return "field '\(field)': \(reason)"
        case .emptyReference: return "empty reference text"
        case .invalidText(let reason): return "reference text: \(reason)"
        case .duplicateID(let id, let first): return "duplicate id '\(id)' (first on line \(first))"
        case .audioMissing(let path): return "audio not found: \(path)"
        case .audioUnreadable(let reason): return "audio unreadable: \(reason)"
        case .durationMismatch(let stated, let actual):
            return
                "duration \(Self.seconds(stated)) s in the manifest, \(Self.seconds(actual)) s in the audio (the audio's is used)"
        case .pathOutsideRoot(let path): return "audio path escapes the corpus root: \(path)"
        case .unsupported(let what): return "unsupported: \(what)"
        case .unreadField(let name, let lines, let known):
            return
                "field '\(name)' is not one this format reads, ignored on \(lines) line\(lines == 1 ? "" : "s") (it reads: \(known.joined(separator: ", ")))"
        }
    }

    private static func seconds(_ x: Double) -> String {
        let rounded = (x * 1000).rounded() / 1000
        return String(rounded)
    }
}

/// Utterances read from a manifest, with every entry that could not be read.
public struct ManifestLoad: Sendable {
    public var file: String
    /// Directory that relative audio paths are resolved against (the corpus root).
    public var root: String
    /// Whether audio must lie inside `root`: our own manifests keep their audio beside them,
    /// while Kaldi, NeMo and LibriSpeech define absolute paths as usual.
    public var confinedToRoot = true
    public var utterances: [Utterance]
    /// Manifest line of each utterance (same order); 0 when the format has no lines per entry.
    public var lines: [Int]
    /// Problems that refused an entry.
    public var issues: [ManifestIssue]
    /// Problems worth saying that did not refuse the entry (a stated duration the audio disagrees with).
    public var warnings: [ManifestIssue] = []

    public init(
        file: String, root: String, utterances: [Utterance] = [], lines: [Int] = [], issues: [ManifestIssue] = []
    ) {
        self.file = file
        self.root = root
        self.utterances = utterances
        self.lines = lines
        self.issues = issues
    }

    mutating func append(_ utterance: Utterance, line: Int) {
        utterances.append(utterance)
        lines.append(line)
    }
}

/// Thrown while one entry is read, then located as a ``ManifestIssue``.
extension ManifestIssue.Problem: Error {}

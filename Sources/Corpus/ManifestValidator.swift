import AudioIO
import Foundation

/// Checks a loaded manifest against its audio: every file present, readable, inside the corpus
/// root and as long as the manifest says. Reports every problem, not just the first.
public struct ManifestValidator: Sendable {
    /// Largest accepted difference between stated and measured duration, in seconds…
    public var durationTolerance: Double = 0.05
    /// …or this share of the duration, whichever is larger.
    public var relativeDurationTolerance: Double = 0.01
    /// Accept audio outside the folder of one of our own manifests (other formats are never
    /// confined: Kaldi's `wav.scp` usually holds absolute paths).
    public var allowOutsideRoot = false
    /// A folder all audio must lie in (after `..` and links), for every format; it overrides
    /// `allowOutsideRoot`.
    public var corpusRoot: String?

    public init(allowOutsideRoot: Bool = false, corpusRoot: String? = nil) {
        self.allowOutsideRoot = allowOutsideRoot
        self.corpusRoot = corpusRoot
    }

    /// `path` with `..` and symbolic links resolved.
    static func real(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The absolute path of an utterance's audio.
    public static func resolve(_ audio: String, root: String) -> String {
        let joined = audio.hasPrefix("/") ? audio : root + "/" + audio
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }

    /// Validates `load`, returning it with unknown durations filled in from the audio headers, the
    /// utterances that failed removed, and their problems added to `issues`.
    public func validate(_ load: ManifestLoad) -> ManifestLoad {
        var result = ManifestLoad(file: load.file, root: load.root, issues: load.issues)
        result.warnings = load.warnings
        result.confinedToRoot = load.confinedToRoot
        // The folder audio must stay in: an explicit corpus root for every format, else our own
        // manifests' folder (unless allowed out); other formats' paths are their own business.
        let boundary =
            corpusRoot.map(Self.real) ?? (load.confinedToRoot && !allowOutsideRoot ? Self.real(load.root) : nil)
        for (utterance, line) in zip(load.utterances, load.lines) {
            var utterance = utterance
            func issue(_ problem: ManifestIssue.Problem) -> ManifestIssue {
                ManifestIssue(file: load.file, line: line, utteranceID: utterance.id, problem: problem)
            }
            let path = Self.resolve(utterance.audio, root: load.root)
            if let boundary, !Self.isInside(Self.real(path), boundary) {
                result.issues.append(issue(.pathOutsideRoot(utterance.audio)))
                continue
            }
            let info: AudioFileInfo
            do {
                info = try AudioFileReader.info(path: path)
            } catch AudioIOError.fileNotFound {
                result.issues.append(issue(.audioMissing(utterance.audio)))
                continue
            } catch {
                result.issues.append(issue(.audioUnreadable("\(error)")))
                continue
            }
            let actual = info.durationSeconds
            if utterance.duration < 0 {
                utterance.duration = actual - (utterance.offset ?? 0)
            } else {
                let tolerance = max(durationTolerance, relativeDurationTolerance * utterance.duration)
                if let offset = utterance.offset {
                    // A segment that runs past the end of its recording cannot be cut.
                    if offset + utterance.duration > actual + tolerance {
                        result.issues.append(
                            issue(.durationMismatch(stated: utterance.duration, actual: actual - offset)))
                        continue
                    }
                } else if abs(utterance.duration - actual) > tolerance {
                    // The audio says how long it is: the stated figure is a note, not a reason to refuse.
                    result.warnings.append(issue(.durationMismatch(stated: utterance.duration, actual: actual)))
                    utterance.duration = actual
                }
            }
            result.append(utterance, line: line)
        }
        result.issues.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        result.warnings.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        return result
    }
}

/// Counts per tier: utterances, audio, speakers, words.
public struct CorpusStatistics: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var tier: String
        public var utterances: Int
        public var seconds: Double
        public var speakers: Int
        public var words: Int
        public var vocabulary: Int
        public var enrollment: Int
        public var test: Int
    }

    public var rows: [Row]
    /// All tiers together (speakers and vocabulary counted once, not summed).
    public var total: Row

    public init(_ utterances: [Utterance]) {
        let groups = Dictionary(grouping: utterances) { $0.tier ?? "(no tier)" }
        rows = groups.keys.sorted().map { Self.row($0, groups[$0]!) }
        total = Self.row("total", utterances)
    }

    static func row(_ tier: String, _ group: [Utterance]) -> Row {
        let words = group.flatMap { $0.reference.lowercased().split(whereSeparator: \.isWhitespace) }
        return Row(
            tier: tier, utterances: group.count, seconds: group.reduce(0) { $0 + max(0, $1.duration) },
            speakers: Set(group.map(\.speaker)).count, words: words.count, vocabulary: Set(words).count,
            enrollment: group.filter { $0.split == .enrollment }.count,
            test: group.filter { $0.split == .test }.count)
    }

    /// A fixed-width table for terminals and logs.
    public func table() -> String {
        let header = ["tier", "utterances", "minutes", "speakers", "words", "vocabulary", "enroll", "test"]
        let body = (rows + (rows.count > 1 ? [total] : [])).map { r in
            [
                r.tier, String(r.utterances), String(format: "%.1f", r.seconds / 60), String(r.speakers),
                String(r.words), String(r.vocabulary), String(r.enrollment), String(r.test),
            ]
        }
        let widths = header.indices.map { c in ([header] + body).map { $0[c].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                c == 0
                    ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }
        return ([line(header)] + body.map(line)).joined(separator: "\n")
    }
}

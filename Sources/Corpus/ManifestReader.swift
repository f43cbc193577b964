import Foundation
import SpeechCore

/// The manifest formats the harness reads.
public enum ManifestFormat: String, Sendable, CaseIterable {
    /// Our own JSON lines (`*.jsonl`).
    case jsonl
    /// A Kaldi data directory (`wav.scp`, `text`, optional `segments`, `utt2spk`).
    case kaldi
    /// A LibriSpeech-style tree of `*.trans.txt` files next to `.flac` audio.
    case librispeech
    /// NeMo JSON lines (`audio_filepath`, `text`, `duration`, optional `offset`, `lang`).
    case nemo
    /// A Hugging Face "audiofolder": `metadata.csv` with `file_name` and a transcript column.
    case audiofolder

    /// Guesses the format from the path: a directory with `wav.scp` is Kaldi, one with
    /// `metadata.csv` an audiofolder, another directory LibriSpeech; a `metadata.csv` file is an
    /// audiofolder's; a JSON-lines file whose first record has `audio_filepath` is NeMo.
    public static func detect(path: String) -> ManifestFormat {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            if FileManager.default.fileExists(atPath: path + "/wav.scp") { return .kaldi }
            return FileManager.default.fileExists(atPath: path + "/metadata.csv") ? .audiofolder : .librispeech
        }
        if path.hasSuffix(".csv") { return .audiofolder }
        if let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            let head = String(decoding: handle.readData(ofLength: 4096), as: UTF8.self)
            if head.split(separator: "\n").first?.contains("\"audio_filepath\"") == true { return .nemo }
        }
        return .jsonl
    }
}

/// How manifests are read: the format (detected when nil), the locale of entries that state none,
/// and whether our own manifests may point outside their folder.
public struct ManifestOptions: Sendable {
    public var format: ManifestFormat?
    public var locale: String
    public var allowOutsideRoot: Bool
    /// Runs Kaldi `wav.scp` command pipelines (nil: they are refused, naming the flag that allows them).
    public var commands: PipedAudio?
    /// When set, every manifest's audio must lie inside this folder once `..` and symbolic links
    /// are resolved, whatever the format.
    public var corpusRoot: String?

    public init(
        format: ManifestFormat? = nil, locale: String = ManifestReader.defaultLocale, allowOutsideRoot: Bool = false,
        commands: PipedAudio? = nil, corpusRoot: String? = nil
    ) {
        self.format = format
        self.locale = locale
        self.allowOutsideRoot = allowOutsideRoot
        self.commands = commands
        self.corpusRoot = corpusRoot
    }
}

/// Reads manifests in every supported format into ``Utterance`` records, continuing past bad
/// entries and reporting each one with its file and line.
public enum ManifestReader {
    /// The locale of entries that do not state one, unless a caller gives another.
    public static let defaultLocale = "en-US"

    /// Reads `path` in `format` (detected when nil); `locale` is for entries without one;
    /// `commands` runs Kaldi pipelines.
    public static func load(
        path: String, format: ManifestFormat? = nil, locale: String = defaultLocale,
        commands: PipedAudio? = nil
    ) -> ManifestLoad {
        let format = format ?? ManifestFormat.detect(path: path)
        var load: ManifestLoad
        switch format {
        case .jsonl: load = loadJSONLines(path: path, locale: locale)
        case .nemo: load = loadNeMo(path: path, locale: locale)
        case .kaldi: load = loadKaldi(directory: path, locale: locale, commands: commands)
        case .librispeech: load = loadLibriSpeech(directory: path, locale: locale)
        case .audiofolder: load = AudioFolderReader.load(path: path, locale: locale)
        }
        load.confinedToRoot = format == .jsonl
        return load
    }

    /// Reads and validates `path` as `options` say.
    public static func load(path: String, options: ManifestOptions) -> ManifestLoad {
        ManifestValidator(allowOutsideRoot: options.allowOutsideRoot, corpusRoot: options.corpusRoot)
            .validate(load(path: path, format: options.format, locale: options.locale, commands: options.commands))
    }

    // MARK: JSON lines

    /// Our JSON lines (`OwnManifestLine`): `duration` comes from the audio header when absent,
    /// and `locale` is `locale` when absent.
    public static func loadJSONLines(path: String, locale: String = defaultLocale) -> ManifestLoad {
        loadLines(OwnManifestLine.self, path: path, locale: locale)
    }

    /// NeMo JSON lines (`NeMoManifestLine`).
    public static func loadNeMo(path: String, locale: String = defaultLocale) -> ManifestLoad {
        loadLines(NeMoManifestLine.self, path: path, locale: locale)
    }

    /// Reads a file of one JSON object per line, each decoded as `Line`: bad lines, failed checks
    /// and duplicate ids become issues, and reading goes on. Fields the format does not read are
    /// one warning each, at the first line that has them.
    static func loadLines<Line: ManifestLine>(_ type: Line.Type, path: String, locale: String) -> ManifestLoad {
        var load = ManifestLoad(file: path, root: directory(of: path))
        guard let lines = readLines(path, into: &load) else { return load }
        var firstLine: [String: Int] = [:]
        var unread: [String: (first: Int, count: Int)] = [:]
        for (index, text) in lines.enumerated() {
            let lineNumber = index + 1
            if text.allSatisfy(\.isWhitespace) { continue }
            let fields = RecordFields(file: path, line: lineNumber)
            record(fields, into: &load) { load in
                let line = try fields.decode(Line.self, text)
                fields.utteranceID = line.id
                for name in line.unread { unread[name, default: (lineNumber, 0)].count += 1 }
                let utterance: Utterance
                do throws(ManifestIssue.Problem) {
                    utterance = try line.utterance(locale: locale)
                } catch { throw fields.issue(error) }
                try check(utterance, fields: fields, durationKnown: utterance.duration >= 0)
                if let first = firstLine[utterance.id] {
                    throw fields.issue(.duplicateID(utterance.id, firstLine: first))
                }
                firstLine[utterance.id] = lineNumber
                load.append(utterance, line: lineNumber)
            }
        }
        for (name, seen) in unread.sorted(by: { ($0.value.first, $0.key) < ($1.value.first, $1.key) }) {
            load.warnings.append(
                ManifestIssue(
                    file: path, line: seen.first,
                    problem: .unreadField(name, lines: seen.count, known: Line.fields.sorted())))
        }
        return load
    }

    // MARK: Kaldi

    /// A Kaldi data directory. Durations come from `segments` when present, otherwise from the
    /// audio header. `wav.scp` entries are paths (absolute, or relative to the directory) or, with
    /// `commands`, pipelines whose output is the audio (`flac -c -d -s x.flac |`).
    public static func loadKaldi(
        directory: String, locale: String = defaultLocale, commands: PipedAudio? = nil
    ) -> ManifestLoad {
        var load = ManifestLoad(file: directory, root: directory)
        let wavScp = directory + "/wav.scp", textFile = directory + "/text"
        guard let wavLines = readLines(wavScp, into: &load), let textLines = readLines(textFile, into: &load) else {
            return load
        }
        var recordings: [String: String] = [:]
        var refused: Set<String> = []  // reported at their wav.scp line, not again at their text line
        for (index, line) in wavLines.enumerated() {
            guard let (key, value) = keyValue(line) else {
                if !line.allSatisfy(\.isWhitespace) {
                    load.issues.append(
                        ManifestIssue(file: wavScp, line: index + 1, problem: .missingField("audio path")))
                }
                continue
            }
            // A recording that cannot be had is reported here, at its wav.scp line, once.
            func refuse(_ problem: ManifestIssue.Problem) {
                refused.insert(key)
                load.issues.append(ManifestIssue(file: wavScp, line: index + 1, utteranceID: key, problem: problem))
            }
            if value.hasSuffix("|") {
                guard let commands else {
                    refuse(
                        .unsupported(
                            "a command pipeline ('\(value.prefix(80))'); give --allow-commands to let the harness run it"
                        ))
                    continue
                }
                do {
                    recordings[key] = try commands.materialize(String(value.dropLast()), in: directory)
                } catch {
                    refuse(.audioUnreadable("'\(value.prefix(80))': \(error.reason)"))
                }
                continue
            }
            if value.contains(" ") {
                refuse(.unsupported("a wav.scp entry with spaces that is not a pipeline ending in '|'"))
                continue
            }
            recordings[key] = value
        }
        var speakers: [String: String] = [:]
        if let spkLines = optionalLines(directory + "/utt2spk") {
            for line in spkLines { if let (u, s) = keyValue(line) { speakers[u] = s } }
        }
        var segments: [String: (recording: String, start: Double, end: Double, line: Int)] = [:]
        let segmentsFile = directory + "/segments"
        if let segLines = optionalLines(segmentsFile) {
            for (index, line) in segLines.enumerated() {
                let parts = line.split(whereSeparator: \.isWhitespace).map(String.init)
                if parts.isEmpty { continue }
                guard parts.count == 4, let start = Double(parts[2]), let end = Double(parts[3]), end > start,
                    start >= 0
                else {
                    load.issues.append(
                        ManifestIssue(
                            file: segmentsFile, line: index + 1, utteranceID: parts.first,
                            problem: .invalidValue(
                                field: "segment", reason: "expected 'utt recording start end' with end > start ≥ 0")))
                    continue
                }
                segments[parts[0]] = (parts[1], start, end, index + 1)
            }
        }
        var firstLine: [String: Int] = [:]
        for (index, line) in textLines.enumerated() {
            let lineNumber = index + 1
            if line.allSatisfy(\.isWhitespace) { continue }
            let (id, text) = keyValue(line) ?? (line.trimmingCharacters(in: .whitespaces), "")
            let fields = RecordFields(file: textFile, line: lineNumber)
            fields.utteranceID = id
            if refused.contains(segments[id]?.recording ?? id) { continue }
            record(fields, into: &load) { load in
                if let first = firstLine[id] { throw fields.issue(.duplicateID(id, firstLine: first)) }
                let audio: String, offset: Double?, duration: Double
                if !segments.isEmpty {
                    guard let segment = segments[id] else { throw fields.issue(.missingField("segments entry")) }
                    guard let path = recordings[segment.recording] else {
                        throw fields.issue(.missingField("wav.scp entry for recording '\(segment.recording)'"))
                    }
                    (audio, offset, duration) = (path, segment.start, segment.end - segment.start)
                } else {
                    guard let path = recordings[id] else { throw fields.issue(.missingField("wav.scp entry")) }
                    audio = path
                    offset = nil
                    duration = -1  // unknown: filled from the audio header by validation
                }
                let utterance = Utterance(
                    id: id, audio: audio, reference: text, locale: locale,
                    speaker: speakers[id] ?? "unknown", task: "unknown",
                    duration: duration, offset: offset)
                try check(utterance, fields: fields, durationKnown: duration >= 0)
                firstLine[id] = lineNumber
                load.append(utterance, line: lineNumber)
            }
        }
        return load
    }

    // MARK: LibriSpeech

    /// A LibriSpeech tree: `SPEAKER/CHAPTER/SPEAKER-CHAPTER.trans.txt` with lines `ID TEXT`, and
    /// `ID.flac` beside it. Durations come from the audio headers.
    public static func loadLibriSpeech(directory: String, locale: String = defaultLocale) -> ManifestLoad {
        var load = ManifestLoad(file: directory, root: directory)
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            load.issues.append(ManifestIssue(file: directory, line: 0, problem: .unreadableFile("not a directory")))
            return load
        }
        let transcripts = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".trans.txt") }.sorted()
        if transcripts.isEmpty {
            load.issues.append(ManifestIssue(file: directory, line: 0, problem: .missingField("*.trans.txt files")))
        }
        var firstSeen: [String: String] = [:]
        for relative in transcripts {
            let file = directory + "/" + relative
            guard let lines = readLines(file, into: &load) else { continue }
            let folder = (relative as NSString).deletingLastPathComponent
            for (index, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
                let fields = RecordFields(file: file, line: index + 1)
                let (id, text) = keyValue(line) ?? (line.trimmingCharacters(in: .whitespaces), "")
                fields.utteranceID = id
                record(fields, into: &load) { load in
                    if firstSeen[id] != nil { throw fields.issue(.duplicateID(id, firstLine: 0)) }
                    let speaker = id.split(separator: "-").first.map(String.init) ?? "unknown"
                    let utterance = Utterance(
                        id: id, audio: (folder.isEmpty ? "" : folder + "/") + id + ".flac",
                        reference: text, locale: locale, speaker: speaker, task: "read", duration: -1)
                    try check(utterance, fields: fields, durationKnown: false)
                    firstSeen[id] = file
                    load.append(utterance, line: index + 1)
                }
            }
        }
        return load
    }

    // MARK: Shared checks

    /// Runs one entry's reading; a problem becomes an issue of the load and reading goes on.
    static func record(
        _ fields: RecordFields, into load: inout ManifestLoad, _ body: (inout ManifestLoad) throws -> Void
    ) {
        do {
            try body(&load)
        } catch let issue as ManifestIssue {
            load.issues.append(issue)
        } catch {
            load.issues.append(fields.issue(.malformedJSON("\(error)")))
        }
    }

    static func check(_ utterance: Utterance, fields: RecordFields, durationKnown: Bool = true) throws {
        if utterance.id.isEmpty { throw fields.issue(.invalidValue(field: "id", reason: "empty")) }
        if utterance.audio.isEmpty { throw fields.issue(.invalidValue(field: "audio", reason: "empty")) }
        if let problem = TextCheck.problem(in: utterance.reference) { throw fields.issue(.invalidText(problem)) }
        if utterance.reference.allSatisfy(\.isWhitespace) { throw fields.issue(.emptyReference) }
        if durationKnown && !(utterance.duration > 0 && utterance.duration.isFinite) {
            throw fields.issue(.invalidValue(field: "duration", reason: "must be a positive number of seconds"))
        }
        if let offset = utterance.offset, !(offset >= 0 && offset.isFinite) {
            throw fields.issue(.invalidValue(field: "offset", reason: "must be ≥ 0"))
        }
    }

    static func directory(of path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    static func readLines(_ path: String, into load: inout ManifestLoad) -> [String]? {
        guard let data = FileContents.read(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read" : "no such file"
            load.issues.append(ManifestIssue(file: path, line: 0, problem: .unreadableFile(reason)))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            load.issues.append(ManifestIssue(file: path, line: 0, problem: .unreadableFile("not UTF-8 text")))
            return nil
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    static func optionalLines(_ path: String) -> [String]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var scratch = ManifestLoad(file: path, root: ".")
        return readLines(path, into: &scratch)
    }

    /// `key rest-of-line`, split at the first run of whitespace.
    static func keyValue(_ line: String) -> (String, String)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard let split = trimmed.firstIndex(where: \.isWhitespace) else { return nil }
        let key = String(trimmed[..<split])
        let value = trimmed[split...].trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : (key, value)
    }
}

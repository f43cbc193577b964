/// Transcripts as the scoring tools keep them: sclite's trn (`text (utterance-id)` per line) or
/// plain text (one utterance per line, paired by line number).
public struct TranscriptFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The trn id, or the line number for plain text.
        public var id: String
        public var text: String
        public var line: Int
    }

    public var entries: [Entry]
    /// Whether every line carried a trn id.
    public var isTRN: Bool

    /// Problems with a transcript file, naming the file and line.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String

        public init(file: String, line: Int, reason: String) {
            self.file = file
            self.line = line
            self.reason = reason
        }

        public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
    }

    /// Reads `contents` (of `file`, for messages): trn when every non-empty line ends in `(id)`.
    public static func parse(_ contents: String, file: String) throws(Problem) -> TranscriptFile {
        var lines = contents.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        if lines.last == "" { lines.removeLast() }
        let trnIDs = lines.map(trnID)
        let isTRN = !lines.isEmpty && zip(lines, trnIDs).allSatisfy { $1 != nil || $0.allSatisfy(\.isWhitespace) }
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            if isTRN {
                guard let (id, text) = trnIDs[index] else { continue }
                if let first = seen[id] {
                    throw Problem(
                        file: file, line: index + 1, reason: "utterance id (\(id)) again (first on line \(first))")
                }
                seen[id] = index + 1
                entries.append(Entry(id: id, text: text, line: index + 1))
            } else {
                entries.append(Entry(id: String(index + 1), text: line, line: index + 1))
            }
        }
        return TranscriptFile(entries: entries, isTRN: isTRN)
    }

    /// `text (id)` → (id, text).
    static func trnID(_ line: String) -> (String, String)? {
        let trimmed = line.trimmingSuffix(while: { $0 == " " || $0 == "\t" })
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") else { return nil }
        let id = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        guard !id.isEmpty else { return nil }
        return (id, String(trimmed[..<open]))
    }

    /// Reference and hypothesis entries paired (by id for trn, by line for text).
    public static func pair(
        reference: TranscriptFile, referencePath: String, hypothesis: TranscriptFile,
        hypothesisPath: String
    ) throws(Problem) -> [(id: String, reference: String, hypothesis: String)] {
        guard reference.isTRN == hypothesis.isTRN else {
            throw Problem(
                file: reference.isTRN ? hypothesisPath : referencePath, line: 0,
                reason: "is plain text while the other file is trn (every line ending in '(utterance-id)')")
        }
        if !reference.isTRN {
            guard reference.entries.count == hypothesis.entries.count else {
                throw Problem(
                    file: hypothesisPath, line: 0,
                    reason:
                        "has \(hypothesis.entries.count) lines, the reference \(referencePath) \(reference.entries.count)"
                )
            }
            return zip(reference.entries, hypothesis.entries).map { ($0.id, $0.text, $1.text) }
        }
        let hypotheses = Dictionary(uniqueKeysWithValues: hypothesis.entries.map { ($0.id, $0.text) })
        let referenceIDs = Set(reference.entries.map(\.id))
        for entry in hypothesis.entries where !referenceIDs.contains(entry.id) {
            throw Problem(
                file: hypothesisPath, line: entry.line, reason: "utterance (\(entry.id)) is not in the reference")
        }
        return try reference.entries.map { (entry) throws(Problem) in
            guard let text = hypotheses[entry.id] else {
                throw Problem(
                    file: hypothesisPath, line: 0,
                    reason: "has no hypothesis for (\(entry.id)) (reference line \(entry.line))")
            }
            return (entry.id, entry.text, text)
        }
    }
}

/// Word and character error counts over paired transcripts, and sclite's per-utterance alignments.
public struct TranscriptScore: Sendable {
    public struct Utterance: Sendable {
        public var id: String
        public var words: Alignment
    }

    public var utterances: [Utterance]
    public var words: ErrorCounts
    public var characters: ErrorCounts

    public init(
        pairs: [(id: String, reference: String, hypothesis: String)], policy: ScoringPolicy,
        costs: WordAligner.Costs = .sclite
    ) {
        var utterances: [Utterance] = []
        var words = ErrorCounts(), characters = ErrorCounts()
        for pair in pairs {
            let reference = policy.prepare(pair.reference), hypothesis = policy.prepare(pair.hypothesis)
            let alignment = WordAligner.alignWords(reference: reference, hypothesis: hypothesis, costs: costs)
            words += alignment.counts
            characters += WordAligner.alignCharacters(reference: reference, hypothesis: hypothesis, costs: costs).counts
            utterances.append(Utterance(id: pair.id, words: alignment))
        }
        self.utterances = utterances
        self.words = words
        self.characters = characters
    }

    /// Share of utterances with at least one word error.
    public var sentenceErrorRate: Double {
        utterances.isEmpty
            ? 0 : Double(utterances.filter { $0.words.counts.errors > 0 }.count) / Double(utterances.count)
    }

    /// Each utterance as sclite's `pralign` report prints it: id, scores, the three rows.
    public var pralign: String {
        utterances.map { u in
            let c = u.words.counts
            let rows = u.words.pralign
            return "id: (\(u.id))\nScores: (#C #S #D #I) \(c.hits) \(c.substitutions) \(c.deletions) \(c.insertions)\n"
                + (rows.isEmpty ? "" : rows + "\n")
        }.joined(separator: "\n")
    }
}

extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[..<end]
    }
}

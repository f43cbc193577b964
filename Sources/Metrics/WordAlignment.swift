/// One step of an alignment between a reference and a hypothesis.
public enum AlignmentStep: Sendable, Hashable {
    case correct(String)
    case substitution(reference: String, hypothesis: String)
    case deletion(String)
    case insertion(String)
}

/// Hits, substitutions, deletions and insertions, and the reference length they are counted against.
public struct ErrorCounts: Sendable, Hashable, Codable {
    public var hits = 0
    public var substitutions = 0
    public var deletions = 0
    public var insertions = 0

    public init(hits: Int = 0, substitutions: Int = 0, deletions: Int = 0, insertions: Int = 0) {
        self.hits = hits
        self.substitutions = substitutions
        self.deletions = deletions
        self.insertions = insertions
    }

    /// Reference words: H + S + D.
    public var referenceLength: Int { hits + substitutions + deletions }
    public var errors: Int { substitutions + deletions + insertions }
    /// (S + D + I) / N; 0 for an empty reference with no insertions, infinity with insertions.
    public var errorRate: Double {
        referenceLength == 0 ? (insertions == 0 ? 0 : .infinity) : Double(errors) / Double(referenceLength)
    }

    /// Hypothesis words: H + S + I.
    public var hypothesisLength: Int { hits + substitutions + insertions }

    /// Match error rate, (S + D + I) / (H + S + D + I): the share of aligned pairs that are errors,
    /// at most 1 (Morris et al., 2004, as jiwer reports it); 0 when nothing was aligned.
    public var matchErrorRate: Double {
        let pairs = hits + errors
        return pairs == 0 ? 0 : Double(errors) / Double(pairs)
    }

    /// Word information preserved, H/(H + S + D) × H/(H + S + I); 1 when both sides are empty.
    public var wordInformationPreserved: Double {
        if referenceLength == 0 && hypothesisLength == 0 { return 1 }
        guard referenceLength > 0, hypothesisLength > 0 else { return 0 }
        return Double(hits) / Double(referenceLength) * Double(hits) / Double(hypothesisLength)
    }

    /// Word information lost, 1 − ``wordInformationPreserved``.
    public var wordInformationLost: Double { 1 - wordInformationPreserved }

    public static func + (a: ErrorCounts, b: ErrorCounts) -> ErrorCounts {
        ErrorCounts(
            hits: a.hits + b.hits, substitutions: a.substitutions + b.substitutions,
            deletions: a.deletions + b.deletions, insertions: a.insertions + b.insertions)
    }

    public static func += (a: inout ErrorCounts, b: ErrorCounts) { a = a + b }
}

/// The alignment of two token sequences and its counts.
public struct Alignment: Sendable, Hashable {
    public var steps: [AlignmentStep]

    public var counts: ErrorCounts {
        var counts = ErrorCounts()
        for step in steps {
            switch step {
            case .correct: counts.hits += 1
            case .substitution: counts.substitutions += 1
            case .deletion: counts.deletions += 1
            case .insertion: counts.insertions += 1
            }
        }
        return counts
    }

    /// For each word both sides have (a `correct` step), its position in the reference and in the
    /// hypothesis: where to compare what else the two say of that word (its times, say).
    public var matchedPositions: [(reference: Int, hypothesis: Int)] {
        var pairs: [(reference: Int, hypothesis: Int)] = []
        var (r, h) = (0, 0)
        for step in steps {
            switch step {
            case .correct:
                pairs.append((r, h))
                r += 1
                h += 1
            case .substitution:
                r += 1
                h += 1
            case .deletion: r += 1
            case .insertion: h += 1
            }
        }
        return pairs
    }

    /// sclite's `pralign` lines, character for character: REF, HYP and Eval rows with errors in
    /// upper case, a gap as many `*` as the word across from it, and every column followed by
    /// a space. Empty when both sides are.
    public var pralign: String {
        guard !steps.isEmpty else { return "" }
        var ref = "", hyp = "", eval = ""
        for step in steps {
            let (r, h, e): (String, String, String)
            switch step {
            case .correct(let w): (r, h, e) = (w, w, "")
            case .substitution(let a, let b): (r, h, e) = (a.uppercased(), b.uppercased(), "S")
            case .deletion(let a): (r, h, e) = (a.uppercased(), String(repeating: "*", count: a.count), "D")
            case .insertion(let b): (r, h, e) = (String(repeating: "*", count: b.count), b.uppercased(), "I")
            }
            let width = max(r.count, h.count, e.count)
            ref += r.padding(toLength: width, withPad: " ", startingAt: 0) + " "
            hyp += h.padding(toLength: width, withPad: " ", startingAt: 0) + " "
            eval += e.padding(toLength: width, withPad: " ", startingAt: 0) + " "
        }
        return "REF:  " + ref + "\nHYP:  " + hyp + "\nEval: " + eval
    }
}

extension Alignment {
    /// Reads back the lines `pralign` wrote (errors stay in upper case, as sclite prints them), so a
    /// stored record's alignment can be drawn without the scoring policy that made it. Nil when
    /// the text is not three such lines.
    public init?(pralign text: String) {
        if text.isEmpty {
            self.init(steps: [])
            return
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 3, lines[0].hasPrefix("REF:  "), lines[1].hasPrefix("HYP:  "), lines[2].hasPrefix("Eval: ")
        else { return nil }
        let ref = Array(lines[0].dropFirst(6)), hyp = Array(lines[1].dropFirst(6)), eval = Array(lines[2].dropFirst(6))
        func token(_ line: [Character], at start: Int) -> String {
            guard start < line.count else { return "" }
            return String(line[start...].prefix { $0 != " " })
        }
        var steps: [AlignmentStep] = []
        var position = 0
        while position < ref.count {
            let r = token(ref, at: position), h = token(hyp, at: position), e = token(eval, at: position)
            guard !r.isEmpty || !h.isEmpty else { return nil }
            switch e {
            case "": steps.append(.correct(r))
            case "S": steps.append(.substitution(reference: r, hypothesis: h))
            case "D": steps.append(.deletion(r))
            case "I": steps.append(.insertion(h))
            default: return nil
            }
            position += max(r.count, h.count, e.count) + 1
        }
        self.init(steps: steps)
    }
}

/// Minimum-cost alignment with NIST sclite's weights (insertion 3, deletion 3, substitution 4,
/// match 0) and its preferences among equal-cost paths, so that counts equal sclite's.
public enum WordAligner {
    /// The weights of an alignment's edits.
    public struct Costs: Sendable, Hashable {
        public var insertion: Int
        public var deletion: Int
        public var substitution: Int

        /// NIST sclite's: a substitution is cheaper than a deletion and an insertion.
        public static let sclite = Costs(insertion: 3, deletion: 3, substitution: 4)
        /// Plain edit distance, as jiwer and most Python tools count: the fewest edits. Its
        /// WER can be lower than sclite's, which may take an extra edit for a cheaper total.
        public static let levenshtein = Costs(insertion: 1, deletion: 1, substitution: 1)
    }

    public static func align(reference: [String], hypothesis: [String], costs: Costs = .sclite) -> Alignment {
        let (insertionCost, deletionCost, substitutionCost) = (costs.insertion, costs.deletion, costs.substitution)
        let n = reference.count, m = hypothesis.count
        // cost(i, j): best cost aligning reference[0..<i] with hypothesis[0..<j].
        // One flat table, row by row (a nested array costs an allocation and a bounds check per row).
        var table = [Int](repeating: 0, count: (n + 1) * (m + 1))
        func cost(_ i: Int, _ j: Int) -> Int { table[i * (m + 1) + j] }
        for i in 0...n { table[i * (m + 1)] = i * deletionCost }
        for j in 0...m { table[j] = j * insertionCost }
        if n > 0 && m > 0 {
            for i in 1...n {
                for j in 1...m {
                    let diagonal = cost(i - 1, j - 1) + (reference[i - 1] == hypothesis[j - 1] ? 0 : substitutionCost)
                    table[i * (m + 1) + j] = min(
                        diagonal, cost(i - 1, j) + deletionCost, cost(i, j - 1) + insertionCost)
                }
            }
        }
        // Trace back from the end. Among equal-cost paths sclite prefers a match or substitution,
        // then an insertion, then a deletion (checked against sclite by the cross-check test).
        var steps: [AlignmentStep] = []
        var i = n, j = m
        while i > 0 || j > 0 {
            if i > 0 && j > 0 {
                let same = reference[i - 1] == hypothesis[j - 1]
                if cost(i, j) == cost(i - 1, j - 1) + (same ? 0 : substitutionCost) {
                    steps.append(
                        same
                            ? .correct(reference[i - 1])
                            : .substitution(reference: reference[i - 1], hypothesis: hypothesis[j - 1]))
                    i -= 1
                    j -= 1
                    continue
                }
            }
            if j > 0 && cost(i, j) == cost(i, j - 1) + insertionCost {
                steps.append(.insertion(hypothesis[j - 1]))
                j -= 1
            } else {
                steps.append(.deletion(reference[i - 1]))
                i -= 1
            }
        }
        return Alignment(steps: steps.reversed())
    }

    /// Word alignment of two normalised texts.
    public static func alignWords(reference: String, hypothesis: String, costs: Costs = .sclite) -> Alignment {
        align(reference: tokens(reference), hypothesis: tokens(hypothesis), costs: costs)
    }

    /// Character alignment (spaces between words count as characters, as in jiwer's CER).
    public static func alignCharacters(reference: String, hypothesis: String, costs: Costs = .sclite) -> Alignment {
        let r = tokens(reference).joined(separator: " ").map(String.init)
        let h = tokens(hypothesis).joined(separator: " ").map(String.init)
        return align(reference: r, hypothesis: h, costs: costs)
    }

    public static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

@_exported import LintSyntax

/// One place a rule's reasoning went through on the way to a finding: where, and what it read there.
public struct LintStep: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// Line and column, the column in UTF-8 bytes as the text output counts it.
    public var location: SourceLocation
    /// The column counted in Unicode scalars, as SARIF reads it.
    public var scalarColumn: Int
    public var text: String

    /// `sourceLine` is the line the step is on, to count its column in Unicode scalars.
    public init(file: String, location: SourceLocation, text: String, sourceLine: Substring? = nil) {
        self.file = file
        self.location = location
        self.text = text
        scalarColumn = sourceLine.map { Self.scalarColumn(location.column, on: $0) } ?? location.column
    }

    /// The 1-based column of `byteColumn` on `line` counted in Unicode scalars.
    static func scalarColumn(_ byteColumn: Int, on line: some StringProtocol) -> Int {
        let bytes = Array(line.utf8.prefix(max(0, byteColumn - 1)))
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.count + 1
    }

    public var description: String { "\(file):\(location.line):\(location.column): \(text)" }
}

/// One finding: where, which rule, what exactly, and the places that show it.
public struct LintFinding: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation
    public var rule: LintRuleDescriptor
    /// What this occurrence is, e.g. "SFSpeechRecognizer".
    public var detail: String
    /// The source line, trimmed: the baseline matches on it so findings survive line shifts.
    public var lineText: String
    /// A mechanical fix, when there is one (a renamed API).
    public var fix: LintFix?
    /// The whole source line, for reports that count columns in characters rather than bytes.
    public var sourceLine: String
    /// The chain of places the rule followed, starting at the finding's own: its case, which
    /// `--explain-finding` prints and SARIF carries as a code flow. Not part of the finding's
    /// identity: two paths to one mistake are one finding.
    public var evidence: [LintStep]

    public init(
        file: String, location: SourceLocation, rule: LintRuleDescriptor, detail: String, lineText: String,
        fix: LintFix? = nil,
        sourceLine: String? = nil, evidence: [LintStep] = []
    ) {
        self.file = file
        self.location = location
        self.rule = rule
        self.detail = detail
        self.lineText = lineText
        self.fix = fix
        self.sourceLine = sourceLine ?? lineText
        self.evidence =
            evidence.isEmpty
            ? [LintStep(file: file, location: location, text: detail, sourceLine: Substring(self.sourceLine))]
            : evidence
    }

    public static func == (a: LintFinding, b: LintFinding) -> Bool {
        a.file == b.file && a.location == b.location && a.rule == b.rule && a.detail == b.detail
            && a.lineText == b.lineText && a.fix == b.fix && a.sourceLine == b.sourceLine
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(location)
        hasher.combine(rule)
        hasher.combine(detail)
        hasher.combine(lineText)
    }

    /// The 1-based column of `byteColumn` on this finding's line counted in Unicode scalars.
    public func scalarColumn(_ byteColumn: Int) -> Int { LintStep.scalarColumn(byteColumn, on: sourceLine) }

    /// What identifies the finding across edits elsewhere in the file: its file, rule and the
    /// trimmed text of its line, hashed (FNV-1a, 64 bits, hex). Two findings on equal lines share it;
    /// the baseline counts them.
    public var fingerprint: String { Self.fingerprint(file: file, rule: rule.id, lineText: lineText) }

    /// The fingerprint of a finding of rule `rule` on a line reading `lineText` in `file`.
    static func fingerprint(file: String, rule: String, lineText: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(file)\u{1F}\(rule)\u{1F}\(lineText)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    public var description: String {
        let fixIt =
            fix.map { "\n    fix-it: replace with `\($0.replacement)` at \(location.line):\($0.start)-\($0.end)" } ?? ""
        return
            "\(file):\(location.line):\(location.column): warning: [\(rule.id)] \(rule.summary): \(detail)\n    fix: \(rule.hint)\(fixIt)"
    }
}

/// A replacement of one span of one line: columns `start..<end` of the finding's line (1-based,
/// in UTF-8 bytes like the finding's location) become `replacement`.
public struct LintFix: Hashable, Sendable {
    public var start: Int
    public var end: Int
    public var replacement: String

    public init(start: Int, end: Int, replacement: String) {
        self.start = start
        self.end = end
        self.replacement = replacement
    }
}

/// What a rule declined to decide, and why: a path it could not follow to its end. Printed beside
/// the findings; never counted, baselined or failed on.
public struct LintNote: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation
    /// The rule that declined.
    public var rule: String
    public var text: String
    /// The places the rule followed before it stopped, starting at the note's own (not part of
    /// the note's identity).
    public var evidence: [LintStep]

    public init(file: String, location: SourceLocation, rule: String, text: String, evidence: [LintStep] = []) {
        self.file = file
        self.location = location
        self.rule = rule
        self.text = text
        self.evidence = [LintStep(file: file, location: location, text: text)] + evidence
    }

    public static func == (a: LintNote, b: LintNote) -> Bool {
        a.file == b.file && a.location == b.location && a.rule == b.rule && a.text == b.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(location)
        hasher.combine(rule)
        hasher.combine(text)
    }

    public var description: String { "\(file):\(location.line):\(location.column): note: [\(rule)] \(text)" }
}

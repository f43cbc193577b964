/// A migration mistake the lint knows, with the fix it suggests.
public struct LintRule: Hashable, Sendable {
    public var id: String
    public var summary: String
    public var hint: String

    /// The rule's reasoning for `migrate lint --explain`: what it looks at and why, and what it
    /// follows before deciding.
    public var explanation: String { Self.explanations[id] ?? summary }

    /// The rule with this id, if there is one.
    public static func named(_ id: String) -> LintRule? { all.first { $0.id == id } }

    /// Every rule, in report order.
    public static let all: [LintRule] = [
        legacyAPI, allocateLocale, betaAssetAPI, betaPreset, nonexistentResultType, resultTranscription,
        progressIteration,
        discardedInputContinuation,
        inputFinishedWithoutAnalyzerFinish, unownedReservationRelease, unguardedBestFormat, untrackedResultTask,
        exactLocaleMatch,
        missingUsageDescription, unreadableSource,
    ]

    public static let legacyAPI = LintRule(
        id: "legacy-api", summary: "uses the SFSpeechRecognizer API",
        hint: "use SpeechTranscriber with SpeechAnalyzer; keep the legacy API only behind an `if #available` fallback")
    public static let allocateLocale = LintRule(
        id: "allocate-locale", summary: "calls allocate(locale:), which the 26 SDK does not have",
        hint:
            "reserve the locale with `AssetInventory.reserve(locale:)` and keep the Bool it returns to know whether you own it"
    )
    public static let betaAssetAPI = LintRule(
        id: "beta-asset-api", summary: "uses an AssetInventory name from the beta SDK that did not ship",
        hint:
            "the shipped names are `reservedLocales`, `maximumReservedLocales` and `release(reservedLocale:)` (which returns whether it released)"
    )
    public static let betaPreset = LintRule(
        id: "beta-preset", summary: "uses a SpeechTranscriber preset name from the beta SDK that did not ship",
        hint:
            "the shipped presets are `.transcription`, `.transcriptionWithAlternatives`, `.timeIndexedTranscriptionWithAlternatives`, `.progressiveTranscription` and `.timeIndexedProgressiveTranscription`"
    )
    public static let nonexistentResultType = LintRule(
        id: "nonexistent-result-type", summary: "names a result type the Speech framework does not have",
        hint:
            "the element type of `transcriber.results` is `SpeechTranscriber.Result` (or `DictationTranscriber.Result`)"
    )
    public static let resultTranscription = LintRule(
        id: "result-transcription", summary: "reads `.transcription`, which transcriber results do not have",
        hint: "use `result.text` (an AttributedString) or `String(result.text.characters)` for plain text")
    public static let progressIteration = LintRule(
        id: "progress-async-iteration", summary: "iterates a Foundation Progress with `for await`",
        hint: "Progress is not an AsyncSequence: observe it (fractionCompleted, KVO, ProgressView) instead")
    public static let discardedInputContinuation = LintRule(
        id: "discarded-input-continuation", summary: "discards the continuation of the analyzer's input stream",
        hint: "keep the continuation: without it no audio can be fed and the input can never end")
    public static let inputFinishedWithoutAnalyzerFinish = LintRule(
        id: "input-finish-without-analyzer-finish", summary: "ends the input stream without finishing the analyzer",
        hint:
            "after `continuation.finish()`, await `analyzer.finalizeAndFinishThroughEndOfInput()` (or `cancelAndFinishNow()`); ending the stream alone does not finish analysis"
    )
    public static let unownedReservationRelease = LintRule(
        id: "unowned-reservation-release",
        summary: "releases a locale reservation without checking that this code created it",
        hint:
            "release only when `AssetInventory.reserve(locale:)` returned true for this owner; another feature may hold the reservation"
    )
    public static let unguardedBestFormat = LintRule(
        id: "unguarded-best-format", summary: "uses bestAvailableAudioFormat(compatibleWith:) without handling nil",
        hint:
            "it returns an optional: `guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith:) else { … }`"
    )
    public static let untrackedResultTask = LintRule(
        id: "untracked-result-task", summary: "consumes results in a Task nobody keeps",
        hint:
            "store the task and cancel or await it on teardown, or use `async let` / a task group so its errors have an owner"
    )
    public static let exactLocaleMatch = LintRule(
        id: "exact-locale-match", summary: "checks locale support by exact equality",
        hint:
            "use `await SpeechTranscriber.supportedLocale(equivalentTo:)`; `contains` rejects usable regional equivalents"
    )
    public static let missingUsageDescription = LintRule(
        id: "missing-usage-description",
        summary: "captures the microphone but the app's Info.plist lacks a usage description",
        hint:
            "add NSMicrophoneUsageDescription (and, where the SFSpeechRecognizer API is used, NSSpeechRecognitionUsageDescription) to the app's Info.plist (or INFOPLIST_KEY_ build settings)"
    )
    public static let unreadableSource = LintRule(
        id: "unreadable-source", summary: "the file could not be read or tokenized cleanly",
        hint: "fix the file or exclude it; findings after a lexical problem may be wrong")
}

extension LintRule {
    static let explanations: [String: String] = [
        legacyAPI.id: """
        Names of the SFSpeechRecognizer family outside an availability fallback, one finding per type
        (per file for code outside types). The legacy API keeps working, but a migration is not done
        while it is still the main path. Calls for authorization (requestAuthorization,
        authorizationStatus) are not reported, nor is code in the else branch of `if #available`,
        under `if #unavailable`, or after `guard #available … else`; nor a type kept as an
        alternative to a SpeechAnalyzer-based one (a shared protocol, both named in one body, both
        public in a library), nor code that makes a SpeechAnalyzer itself beside the legacy one.
        """,
        allocateLocale.id: """
        `allocate(locale:)` appeared in early drafts and guides but is not in the shipped SDK. The
        shipped call is `AssetInventory.reserve(locale:)`, whose Bool says whether this call created
        the reservation, which is what a later release must know.
        """,
        betaAssetAPI.id: """
        The first betas named locale reservations as allocations: `AssetInventory.allocatedLocales`,
        `maximumAllocatedLocales` and `deallocate(locale:)`, as the WWDC25 sample code still does.
        The shipped SDK has `reservedLocales`, `maximumReservedLocales` and `release(reservedLocale:)`;
        code with the beta names does not compile against it. Each finding carries the replacement as a
        fix. A loop that releases every reserved locale is also checked by unowned-reservation-release.
        """,
        betaPreset.id: """
        The first beta's presets `.offlineTranscription` and `.progressiveLiveTranscription` became
        `.transcription` and `.progressiveTranscription`; code with the beta names does not compile
        against the shipped SDK (Apple's own overview in the interface still shows the first). Reported
        where the name is a preset: after `preset:` or `Preset.`, in a file that sees Speech, unless
        the project declares a member of that name itself. Each finding carries the replacement as a fix.
        """,
        nonexistentResultType.id: """
        `SpeechTranscriptionResult` and `DictationTranscriptionResult` never shipped. Code naming them
        does not compile against the real SDK; the result types are nested in their modules. Reported
        only where the name would be Speech's: in a file that imports Speech (or a module that
        re-exports it), and not when the project declares a type of that name itself.
        """,
        resultTranscription.id: """
        Legacy results carried `bestTranscription`/`transcription`; the new results carry `text`, an
        AttributedString whose runs hold time ranges and confidences. Reported where `.transcription` is
        read from a transcriber result: a loop variable over a `results` sequence, or a value declared
        with a result type. An app's own `memo.transcription` is not reported.
        """,
        progressIteration.id: """
        An asset installation request exposes a Foundation `Progress`, which is not an AsyncSequence;
        `for await` over it does not compile against the real SDK. Observe fractionCompleted instead.
        """,
        discardedInputContinuation.id: """
        `let (stream, _) = AsyncStream<AnalyzerInput>.makeStream()` throws away the only way to feed
        the stream and to end it. The analyzer then waits for input forever.
        """,
        inputFinishedWithoutAnalyzerFinish.id: """
        Ending the input stream (`continuation.finish()`) does not end the analysis session: the
        analyzer may be given another input sequence, so it waits. A path that ends the input must also
        end the session with a finish or cancel call (finalizeAndFinishThroughEndOfInput,
        finalizeAndFinish, finish(after:), cancelAndFinishNow). Setting the analyzer to nil is not
        enough: pending results are never finalized, and the running analysis may keep it alive.
        Before reporting, the rule follows: calls to functions and to closures stored on the type whose
        bodies make such a call (to any depth); closures passed in for a handler (`onFailure:`) from
        any file, which must all make one; the callers of the function that ends the input, in its
        own type and, across the files linted, on receivers whose type is evident (a local made with
        `Type(…)`, a stored property or a parameter of that type), each of which must finish or
        cancel the analyzer, before or after the call (followed up to four callers deep); and `catch`
        clauses whose `do` only runs the analyzer or iterates its results, where the analyzer's
        error has already finished the session. The finding names the path it followed and where it
        stopped; a function nothing in the files calls is reported.
        """,
        unownedReservationRelease.id: """
        `AssetInventory.reserve(locale:)` returns true only when it created the reservation. If another
        feature already held it, releasing it here takes the locale's assets from that feature. A
        release must run only for reservations this code made.
        The rule accepts a release under a condition on reserve's result or on a name that records it:
        a Bool assigned from it, a flag set to true or a collection filled (insert, append) only where
        it returned true, including after `guard … reserve(…) else`. Iterating such a collection
        (`for locale in reserved`, `reserved.forEach`) counts as consulting it. A collection filled
        whether or not the reservation was created records nothing and does not count.
        """,
        unguardedBestFormat.id: """
        `bestAvailableAudioFormat(compatibleWith:)` returns nil when no format suits the modules. Code
        that binds it and then uses the value as if it were present crashes or converts to nothing. A
        `guard let`/`if let`, optional chaining, a nil comparison, a switch, or passing it to a labelled
        parameter (the compiler checks that type) counts as handling. When the value is kept in a stored
        property (directly or from the local it was bound to), the rule follows the property: every
        read of it in the file must handle nil, or sit inside an `if let`/`guard let` that unwrapped it.
        """,
        untrackedResultTask.id: """
        A `Task { for try await r in transcriber.results … }` that nothing stores cannot be cancelled on
        teardown, and its error is lost. Store it, await it, or use structured concurrency.
        """,
        exactLocaleMatch.id: """
        `supportedLocales.contains(locale)`, and comparing identifier strings
        (`map { $0.identifier(.bcp47) }.contains(…)`, `contains(where: { … == … })`), match exactly, so
        a bare "fr" or en_US with a region override fails against the list.
        `supportedLocale(equivalentTo:)` finds the usable equivalent. The rule follows the compared
        locale first: a constant written in the code, or a locale `supportedLocale(equivalentTo:)`
        returned, compares as written; a parameter is followed to every caller (three deep).
        """,
        missingUsageDescription.id: """
        An app that captures the microphone (AVAudioEngine, installTap, AVCaptureDevice,
        requestRecordPermission) must declare NSMicrophoneUsageDescription, or the system ends it on
        first access. NSSpeechRecognitionUsageDescription is required only where the files linted use
        the SFSpeechRecognizer API, which may send audio to Apple's servers; SpeechAnalyzer's modules
        run on the device. Applied only to app targets: an Info.plist, an .xcodeproj application
        target, an XcodeGen `type: application`, or INFOPLIST_KEY_ build settings. Command-line tools
        and packages have nothing to declare in, and the run says why the rule was not applied.
        """,
        unreadableSource.id: """
        The tokenizer met an unterminated string or comment, or a file is not UTF-8. Findings after that
        point may be wrong, so the problem is reported rather than hidden.
        """,
    ]
}

/// One finding: where, which rule, what exactly.
public struct LintFinding: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation
    public var rule: LintRule
    /// What this occurrence is, e.g. "SFSpeechRecognizer".
    public var detail: String
    /// The source line, trimmed: the baseline matches on it so findings survive line shifts.
    public var lineText: String
    /// A mechanical fix, when there is one (a renamed API).
    public var fix: LintFix?
    /// The whole source line, for reports that count columns in characters rather than bytes.
    public var sourceLine: String

    public init(
        file: String, location: SourceLocation, rule: LintRule, detail: String, lineText: String, fix: LintFix? = nil,
        sourceLine: String? = nil
    ) {
        self.file = file
        self.location = location
        self.rule = rule
        self.detail = detail
        self.lineText = lineText
        self.fix = fix
        self.sourceLine = sourceLine ?? lineText
    }

    /// The 1-based column of `byteColumn` on this finding's line counted in Unicode scalars.
    public func scalarColumn(_ byteColumn: Int) -> Int {
        let bytes = Array(sourceLine.utf8.prefix(max(0, byteColumn - 1)))
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.count + 1
    }

    /// What identifies the finding across edits elsewhere in the file: its file, rule and the
    /// trimmed text of its line, hashed (FNV-1a, 64 bits, hex). Two findings on equal lines share it;
    /// the baseline counts them.
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(file)\u{1F}\(rule.id)\u{1F}\(lineText)".utf8 {
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

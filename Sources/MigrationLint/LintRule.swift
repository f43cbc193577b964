/// A migration mistake the lint knows, with the fix it suggests.
public struct LintRule: Hashable, Sendable {
    public var id: String
    public var summary: String
    public var hint: String

    /// Every rule, in report order.
    public static let all: [LintRule] = [
        legacyAPI, allocateLocale, nonexistentResultType, resultTranscription, progressIteration, discardedInputContinuation,
        inputFinishedWithoutAnalyzerFinish, unownedReservationRelease, unguardedBestFormat, untrackedResultTask, exactLocaleMatch,
        missingUsageDescription, unreadableSource,
    ]

    public static let legacyAPI = LintRule(
        id: "legacy-api", summary: "uses the SFSpeechRecognizer API",
        hint: "use SpeechTranscriber with SpeechAnalyzer; keep the legacy API only behind an `if #available` fallback")
    public static let allocateLocale = LintRule(
        id: "allocate-locale", summary: "calls allocate(locale:), which the 26 SDK does not have",
        hint: "reserve the locale with `AssetInventory.reserve(locale:)` and keep the Bool it returns to know whether you own it")
    public static let nonexistentResultType = LintRule(
        id: "nonexistent-result-type", summary: "names a result type the Speech framework does not have",
        hint: "the element type of `transcriber.results` is `SpeechTranscriber.Result` (or `DictationTranscriber.Result`)")
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
        hint: "after `continuation.finish()`, await `analyzer.finalizeAndFinishThroughEndOfInput()` (or `cancelAndFinishNow()`); ending the stream alone does not finish analysis")
    public static let unownedReservationRelease = LintRule(
        id: "unowned-reservation-release", summary: "releases a locale reservation without checking that this code created it",
        hint: "release only when `AssetInventory.reserve(locale:)` returned true for this owner; another feature may hold the reservation")
    public static let unguardedBestFormat = LintRule(
        id: "unguarded-best-format", summary: "uses bestAvailableAudioFormat(compatibleWith:) without handling nil",
        hint: "it returns an optional: `guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith:) else { … }`")
    public static let untrackedResultTask = LintRule(
        id: "untracked-result-task", summary: "consumes results in a Task nobody keeps",
        hint: "store the task and cancel or await it on teardown, or use `async let` / a task group so its errors have an owner")
    public static let exactLocaleMatch = LintRule(
        id: "exact-locale-match", summary: "checks locale support by exact equality",
        hint: "use `await SpeechTranscriber.supportedLocale(equivalentTo:)`; `contains` rejects usable regional equivalents")
    public static let missingUsageDescription = LintRule(
        id: "missing-usage-description", summary: "captures the microphone but the app's Info.plist lacks a usage description",
        hint: "add NSMicrophoneUsageDescription and NSSpeechRecognitionUsageDescription to the app's Info.plist (or INFOPLIST_KEY_ build settings)")
    public static let unreadableSource = LintRule(
        id: "unreadable-source", summary: "the file could not be read or tokenized cleanly",
        hint: "fix the file or exclude it; findings after a lexical problem may be wrong")
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

    public init(file: String, location: SourceLocation, rule: LintRule, detail: String, lineText: String) {
        self.file = file
        self.location = location
        self.rule = rule
        self.detail = detail
        self.lineText = lineText
    }

    public var description: String {
        "\(file):\(location.line):\(location.column): warning: [\(rule.id)] \(rule.summary): \(detail)\n    fix: \(rule.hint)"
    }
}

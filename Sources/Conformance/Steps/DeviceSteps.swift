import Foundation
import SpeechCore
@_spi(Harness) import SpeechReference

/// Steps that ask what the device offers: SpeechTranscriber's availability, the locales the
/// transcribers list and their equivalents, and how the last download progressed.

/// Which transcriber a locale question is about.
enum TranscriberName: String, ClosedSetValue, Hashable {
    case transcriber, dictation
    static let valueName = "transcriber"
}

/// `SpeechTranscriber.isAvailable`: `true` or `false`.
struct IsAvailableStep: ExpectingStep {
    static let name = "isAvailable"
    static let outcomes = OutcomeKinds.answers(["true", "false"], failures: false)
    var expect: Expectation?

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        run.check(expect, .answer(String(SpeechTranscriber.isAvailable)), at: place)
    }
}

/// Whether a transcriber's `supportedLocales` (or `installedLocales`) lists anything: `"some"`
/// or `"none"` (backends list different locales, so the count is not compared).
struct SupportedLocalesStep: StepAction {
    static let name = "supportedLocales"
    static let outcomes = OutcomeKinds.answers([#""some""#, #""none""#], failures: false)
    enum CodingKeys: String, ExpectationKeys, CaseIterable { case of, installed, expect, exact }
    var of: TranscriberName
    var installed: Bool
    var expect: Expectation?

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        of = try fields.decodeIfPresent(TranscriberName.self, forKey: .of) ?? .transcriber
        installed = try fields.decodeIfPresent(Bool.self, forKey: .installed) ?? false
        expect = try fields.expectation(of: Self.name, Self.outcomes)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let locales: [Locale] =
            switch (of, installed) {
            case (.transcriber, false): await SpeechTranscriber.supportedLocales
            case (.transcriber, true): await SpeechTranscriber.installedLocales
            case (.dictation, false): await DictationTranscriber.supportedLocales
            case (.dictation, true): await DictationTranscriber.installedLocales
            }
        run.check(expect, .answer(locales.isEmpty ? "none" : "some"), at: place)
    }
}

/// `supportedLocale(equivalentTo:)` of `locale` (`current` for `Locale.current`): the tag of the
/// locale it returns (`"en-US"`), or `null`.
struct EquivalentLocaleStep: StepAction {
    static let name = "equivalentLocale"
    enum CodingKeys: String, ExpectationKeys, CaseIterable { case locale, of, expect, exact }
    var named: String
    var of: TranscriberName
    var expect: Expectation?

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        named = try fields.decode(String.self, forKey: .locale)
        of = try fields.decodeIfPresent(TranscriberName.self, forKey: .of) ?? .transcriber
        expect = try fields.expectation(of: Self.name, .text)
    }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let asked = Scenario.locale(named)
        let found =
            switch of {
            case .transcriber: await SpeechTranscriber.supportedLocale(equivalentTo: asked)
            case .dictation: await DictationTranscriber.supportedLocale(equivalentTo: asked)
            }
        run.check(expect, .answer(found.map { $0.identifier(.bcp47) } ?? "nil"), at: place)
    }
}

/// How the last `installRequest` step's `Progress` moved (``DownloadProgressSummary``): the file
/// writes `"<n> steps over <s> s to <p>%"`, or `"none"` when it never moved.
struct DownloadProgressStep: ExpectingStep {
    static let name = "downloadProgress"
    static let outcomes = OutcomeKinds.downloadProgress
    var expect: Expectation?

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let history = run.lastInstallRequest?.progressHistory ?? []
        let summary = history.last.map {
            DownloadProgressSummary(
                steps: history.count, seconds: $0.seconds, percent: Int(($0.fraction * 10).rounded()) * 10)
        }
        run.check(expect, .downloadProgress(summary), at: place)
    }
}

import Foundation
import SpeechReference

/// Steps that reserve, release and install locale assets.

/// `AssetInventory.reserve(locale:)`: `true`, `false` or a failure.
struct ReserveStep: LocaleStep {
    static let name = "reserve"
    static let outcomes = OutcomeKinds.answers(["true", "false"], failures: true)
    var named: String
    var expect: Expectation?

    var locale: String? { named }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let locale = Locale(identifier: named)
        let outcome = await ScenarioExecution.describeValue { String(try await AssetInventory.reserve(locale: locale)) }
        run.check(expect, outcome, at: place)
    }
}

/// `AssetInventory.release(reservedLocale:)`: `true` or `false`.
struct ReleaseStep: LocaleStep {
    static let name = "release"
    static let outcomes = OutcomeKinds.answers(["true", "false"], failures: false)
    var named: String
    var expect: Expectation?

    var locale: String? { named }

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let done = await AssetInventory.release(reservedLocale: Locale(identifier: named))
        run.check(expect, .answer(String(done)), at: place)
    }
}

/// `AssetInventory.status(forModules:)` of the analyzer's modules.
struct StatusStep: ExpectingStep {
    static let name = "status"
    static let outcomes = OutcomeKinds.answers(
        [#""unsupported""#, #""supported""#, #""downloading""#, #""installed""#], failures: false)
    var expect: Expectation?

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        run.check(expect, .answer("\(await AssetInventory.status(forModules: run.modules))"), at: place)
    }
}

/// `assetInstallationRequest(supporting:)`, then its download: `"installed"`, `null` (no request
/// was needed) or a failure.
struct InstallRequestStep: ExpectingStep {
    static let name = "installRequest"
    static let outcomes = OutcomeKinds.answers([#""installed""#, "null"], failures: true)
    var expect: Expectation?

    func perform(in run: ScenarioExecution, at place: StepPlace) async {
        let modules = run.modules
        let outcome = await ScenarioExecution.describeValue {
            guard let request = try await AssetInventory.assetInstallationRequest(supporting: modules) else {
                return "nil"
            }
            run.lastInstallRequest = request
            try await request.downloadAndInstall()
            return "installed"
        }
        run.check(expect, outcome, at: place)
    }
}

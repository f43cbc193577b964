import Foundation
import MigrationLint
import Testing

/// exact-locale-match: the rule's findings and the shapes it must stay quiet on.
extension MigrationLinterTests {
    @Test func exactLocaleEquality() {
        let bad = """
            let supported = await SpeechTranscriber.supportedLocales
            guard supported.contains(locale) else { return }
            guard await SpeechTranscriber.installedLocales.contains(locale) else { return }
            """
        #expect(Self.rules(bad) == ["exact-locale-match", "exact-locale-match"])
        // An installed check whose miss refuses nothing (an empty branch, a status kept or shown,
        // a helper nobody calls) decides nothing.
        #expect(Self.rules("if await SpeechTranscriber.installedLocales.contains(locale) { }").isEmpty)
        #expect(Self.rules("status = await SpeechTranscriber.installedLocales.contains(locale)").isEmpty)
        #expect(
            Self.rules("func ready(_ l: Locale) async -> Bool { await SpeechTranscriber.installedLocales.contains(l) }")
                .isEmpty)
        #expect(
            Self.rules("guard let l = await SpeechTranscriber.supportedLocale(equivalentTo: locale) else { return }")
                .isEmpty)
    }

    /// An exact identifier comparison of a locale the code wrote (a constant, passed down by every
    /// caller) matches as written; one of `Locale.current` does not.
    @Test func identifierComparisonsFollowTheLocaleToItsCallers() {
        let check = """
            struct Assets {
                func installed(locale: Locale) async -> Bool {
                    let installed = await SpeechTranscriber.installedLocales
                    return installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
                }
                func ensure(locale: Locale) async {
                    var chosen = locale
                    for fallback in Self.fallbacks where chosen == locale { chosen = fallback }
                    guard await installed(locale: chosen) else { return }
                }
            }
            """
        let constant = "func go() async { await Assets().ensure(locale: Locale.ja) }"
        let user = "func go() async { await Assets().ensure(locale: Locale.current) }"
        let lint = { (caller: String) in
            MigrationLinter.lint(
                [LintSource(file: "Assets.swift", text: check), LintSource(file: "Go.swift", text: caller)],
                project: Self.plist
            ).map(\.rule.id)
        }
        #expect(lint(constant).isEmpty)
        #expect(lint(user) == ["exact-locale-match"])
        let trail = MigrationLinter.lint(
            [LintSource(file: "Assets.swift", text: check), LintSource(file: "Go.swift", text: user)],
            project: Self.plist
        ).first?.detail
        // Nothing asks for an installation on a miss, so the installed check gates the feature and says so.
        #expect(
            trail?.hasSuffix(
                "followed: installed() is called with chosen at Assets.swift:9; ensure() is called with Locale.current at Go.swift:1"
                    + "; this installed check alone decides whether the feature runs: no installation is requested on a miss"
            ) == true, "\(trail ?? "")")
        #expect(lint("") == ["exact-locale-match"])
    }

    /// `contains(where:)` and trailing closures compare exactly too; a constant on the other side
    /// (a public app checks its one fixed locale so) matches as written.
    @Test func closureComparisonsAreExactUnlessTheOtherSideIsAConstant() {
        let source = """
            func fixed() async -> Bool {
                let locale = Locale(identifier: "ja-JP")
                let supported = await SpeechTranscriber.supportedLocales
                return supported.contains(where: { $0.identifier(.bcp47) == locale.identifier(.bcp47) })
            }
            func current() async -> Bool {
                let installed = await SpeechTranscriber.installedLocales
                return installed.contains { candidate in candidate.identifier == Locale.current.identifier }
            }
            func start() async throws {
                guard await fixed(), await current() else { throw CancellationError() }
            }
            """
        let found = MigrationLinter.lint(source: source, file: "L.swift", project: Self.plist)
        #expect(found.map(\.location.line) == [8])
    }

    /// Apple's lists, however written (`(await SpeechTranscriber.installedLocales).contains(…)`);
    /// an app's own `Self.supportedLocales` is not one.
    @Test func onlyTheTranscribersListsAreLocaleLists() {
        let source = """
            struct Picker {
                static let supportedLocales: [Option] = []
                func pick() -> Bool { Set(Self.supportedLocales.map(\\.identifier)).contains(Locale.current.identifier) }
                func needsDownload(_ name: String) async -> Bool {
                    let locale = Locale(identifier: name)
                    return !(await SpeechTranscriber.installedLocales).contains(locale)
                }
                func start(_ name: String) async throws {
                    if await needsDownload(name) { throw CancellationError() }
                }
            }
            """
        let found = MigrationLinter.lint(source: source, file: "P.swift", project: Self.plist)
        #expect(found.map(\.location.line) == [6])
    }

    /// A stored property set once to a constant locale compares exactly as written; one set from
    /// outside does not.
    @Test func aConstantLocalePropertyComparesAsWritten() {
        let source = """
            final class Quick {
                private var locale = Locale(identifier: "en-US")
                func check() async -> Bool {
                    await SpeechTranscriber.installedLocales.contains { $0.identifier(.bcp47) == locale.identifier(.bcp47) }
                }
                func start() async throws { guard await check() else { throw CancellationError() } }
            }
            """
        #expect(Self.rules(source).isEmpty)
        #expect(
            Self.rules(source + "\nextension Quick { func set(_ l: Locale) { locale = l } }") == ["exact-locale-match"])
    }

    /// A parameter named like the type's constant locale is the caller's locale, not the constant.
    @Test func aParameterHidesTheTypesConstantOfTheSameName() {
        let source = """
            final class Checker {
                static let locale = Locale(identifier: "en-US")
                func go() async -> Bool { await supported(locale: Locale.current) }
                func supported(locale: Locale) async -> Bool {
                    let supported = await SpeechTranscriber.supportedLocales
                    return supported.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
                }
                func fixed() async -> Bool {
                    let supported = await SpeechTranscriber.supportedLocales
                    return supported.map { $0.identifier(.bcp47) }.contains(Self.locale.identifier(.bcp47))
                }
            }
            """
        let found = MigrationLinter.lint(source: "import Speech\n" + source, file: "Checker.swift", project: Self.plist)
        #expect(found.map(\.rule.id) == ["exact-locale-match"])
        #expect(found.map(\.location.line) == [7])
    }
}

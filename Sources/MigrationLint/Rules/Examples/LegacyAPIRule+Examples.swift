extension LegacyAPIRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "asking for authorization still goes through SFSpeechRecognizer",
            ##"""
            import Speech

            func askForPermission() {
                SFSpeechRecognizer.requestAuthorization { status in print(status) }
            }
            """##),
        LintExample(
            "the legacy recogniser kept as the fallback of an availability check",
            ##"""
            import Speech

            final class Dictation {
                func start() {
                    if #available(iOS 26, macOS 26, *) {
                        print("SpeechAnalyzer path")
                    } else {
                        let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"))
                        print(recognizer as Any)
                    }
                }
            }
            """##),
        LintExample(
            "after `guard #available … else`, the else block is the fallback",
            ##"""
            import Speech

            final class Dictation {
                func start() {
                    guard #available(iOS 26, *) else {
                        _ = SFSpeechAudioBufferRecognitionRequest()
                        return
                    }
                    print("SpeechAnalyzer path")
                }
            }
            """##),
        LintExample(
            "after an `if #available(…), …` whose branch always returns, the rest is the fallback (held-out sets' shape)",
            ##"""
            import Speech

            final class Dictation {
                func start(locale: Locale) async {
                    if #available(iOS 26, macOS 26, *), SpeechTranscriber.isAvailable,
                        let chosen = await SpeechTranscriber.supportedLocale(equivalentTo: locale)
                    {
                        print("SpeechAnalyzer path for \(chosen)")
                        return
                    }
                    let recognizer = SFSpeechRecognizer(locale: locale)
                    print(recognizer as Any)
                }
            }
            """##),
        LintExample(
            "a delegate type nested inside an engine that runs SpeechAnalyzer itself",
            ##"""
            import Speech

            final class Engine {
                let analyzer = SpeechAnalyzer(modules: [])

                final class LegacyDelegate: NSObject, SFSpeechRecognizerDelegate {}
            }
            """##),
        LintExample(
            "test code checks the legacy path's contract (a file under `Tests/`, or one importing XCTest)",
            files: [
                (
                    "Tests/AppTests/LocaleTests.swift",
                    ##"""
                    import Speech
                    import XCTest

                    final class LocaleTests: XCTestCase {
                        func testEnglishIsSupported() {
                            XCTAssertTrue(SFSpeechRecognizer.supportedLocales().contains(Locale(identifier: "en-US")))
                        }
                    }
                    """##
                )
            ]),
        LintExample(
            "a helper that only the legacy fallback provider uses, beside a SpeechAnalyzer provider (held-out set 6's shape)",
            files: [
                (
                    "Providers.swift",
                    ##"""
                    import Speech

                    protocol CaptionProvider { func captions(for url: URL) async throws -> String }

                    final class ModernProvider: CaptionProvider {
                        func captions(for url: URL) async throws -> String {
                            _ = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
                            return ""
                        }
                    }

                    final class LegacyProvider: CaptionProvider {
                        let makeRequest: RequestFactory = ProductionRequestFactory()
                        func captions(for url: URL) async throws -> String {
                            _ = SFSpeechRecognizer()
                            return LegacySnapshot(text: "").text
                        }
                    }
                    """##
                ),
                (
                    "LegacyHelpers.swift",
                    ##"""
                    import Speech

                    protocol RequestFactory { func request(for url: URL) -> SFSpeechURLRecognitionRequest }

                    struct ProductionRequestFactory: RequestFactory {
                        func request(for url: URL) -> SFSpeechURLRecognitionRequest { SFSpeechURLRecognitionRequest(url: url) }
                    }

                    struct LegacySnapshot {
                        var text: String
                        init(text: String) { self.text = text }
                        init(result: SFSpeechRecognitionResult) { text = result.bestTranscription.formattedString }
                    }
                    """##
                ),
            ]),
        LintExample(
            "a status report that probes SFSpeechRecognizer beside a SpeechTranscriber helper (held-out set 8's shape)",
            files: [
                (
                    "Environment.swift",
                    ##"""
                    import Speech

                    enum TranscriberSupport {
                        static func isInstalled(_ locale: Locale) async -> Bool {
                            await SpeechTranscriber.installedLocales.contains(locale)
                        }
                    }

                    enum EnvironmentReport {
                        static func lines(for locale: Locale) async -> [String] {
                            let legacy = SFSpeechRecognizer(locale: locale)?.isAvailable ?? false
                            let modern = await TranscriberSupport.isInstalled(locale)
                            return ["legacy: \(legacy)", "SpeechTranscriber: \(modern)"]
                        }
                    }
                    """##
                )
            ]),
        LintExample(
            "a private legacy start called only from the `else` of `#available` and from the `catch` of the new path's start (held-out set 9's shape)",
            ##"""
            import Speech

            final class Recorder {
                private var request: SFSpeechAudioBufferRecognitionRequest?
                private var task: SFSpeechRecognitionTask?

                func start(locale: Locale) async throws {
                    if #available(macOS 26, *) {
                        do {
                            try await ModernSession.start(locale: locale)
                        } catch {
                            try startLegacy(locale: locale)
                        }
                    } else {
                        try startLegacy(locale: locale)
                    }
                }

                private func startLegacy(locale: Locale) throws {
                    let request = SFSpeechAudioBufferRecognitionRequest()
                    self.request = request
                    task = SFSpeechRecognizer(locale: locale)?.recognitionTask(with: request) { _, _ in }
                }
            }

            @available(macOS 26, *)
            enum ModernSession {
                static func start(locale: Locale) async throws {}
            }
            """##),
    ]

    static let triggeringExamples: [LintExample] = [
        LintExample(
            "the same private legacy start, also called on the path where the new one is available",
            ##"""
            import Speech

            final class Recorder {
                private var request: ↓SFSpeechAudioBufferRecognitionRequest?

                func start(locale: Locale, preferLegacy: Bool) async throws {
                    if #available(macOS 26, *), !preferLegacy {
                        try await ModernSession.start(locale: locale)
                    } else {
                        try startLegacy(locale: locale)
                    }
                    if preferLegacy { try startLegacy(locale: locale) }
                }

                private func startLegacy(locale: Locale) throws {
                    let request = SFSpeechAudioBufferRecognitionRequest()
                    self.request = request
                    _ = SFSpeechRecognizer(locale: locale)?.recognitionTask(with: request) { _, _ in }
                }
            }

            @available(macOS 26, *)
            enum ModernSession {
                static func start(locale: Locale) async throws {}
            }
            """##),
        LintExample(
            "a recogniser type built on the legacy API alone: one finding for the type, at its first use",
            ##"""
            import Speech

            final class Dictation {
                private let recognizer = ↓SFSpeechRecognizer(locale: Locale(identifier: "en-US"))
                private var request: SFSpeechAudioBufferRecognitionRequest?
                private var task: SFSpeechRecognitionTask?
            }
            """##),
        LintExample(
            "an `if #available` whose branch does not always leave: the legacy code after it runs on 26 too",
            ##"""
            import Speech

            final class Dictation {
                func start(locale: Locale) {
                    if #available(iOS 26, *) { print("also try SpeechAnalyzer") }
                    let recognizer = ↓SFSpeechRecognizer(locale: locale)
                    print(recognizer as Any)
                }
            }
            """##),
        LintExample(
            "code outside any type: one finding for the file",
            ##"""
            import Speech

            let request = ↓SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: "memo.m4a"))
            let recognizer = SFSpeechRecognizer()
            """##),
        LintExample(
            "an app's own class named SpeechTranscriber wrapping the legacy recogniser is not SpeechAnalyzer",
            ##"""
            import Speech

            final class SpeechTranscriber {
                static let shared = SpeechTranscriber()
                private let recognizer = ↓SFSpeechRecognizer(locale: Locale(identifier: "en-US"))
            }
            """##),
        LintExample(
            "a type that starts a recognition task is a recognition path, whatever helper it names beside it",
            files: [
                (
                    "Probe.swift",
                    ##"""
                    import Speech

                    enum TranscriberSupport {
                        static func isInstalled(_ locale: Locale) async -> Bool {
                            await SpeechTranscriber.installedLocales.contains(locale)
                        }
                    }

                    enum Probe {
                        static func check(_ url: URL) async {
                            _ = await TranscriberSupport.isInstalled(Locale(identifier: "en-US"))
                            let recognizer = ↓SFSpeechRecognizer()
                            _ = recognizer?.recognitionTask(with: SFSpeechURLRecognitionRequest(url: url)) { _, _ in }
                        }
                    }
                    """##
                )
            ]),
    ]
}

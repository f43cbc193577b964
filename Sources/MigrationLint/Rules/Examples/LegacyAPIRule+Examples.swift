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
    ]

    static let triggeringExamples: [LintExample] = [
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
    ]
}

extension BetaPresetRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "beta-presets: the first beta's preset names (`.offlineTranscription`, `.progressiveLiveTranscription`, also as the branches of a `? :` in the `preset:` argument, as a public CLI example has them), against the shipped presets and an app's own enum whose cases share those names",
            files: [
                (
                    "Transcription.swift",
                    ##"""
                    import Speech

                    /// The shipped presets, and the app's own mode whose cases share a beta name.
                    struct Transcription {
                        enum Mode { case offlineTranscription, progressiveLiveTranscription }

                        func transcriber(_ locale: Locale, mode: Mode) -> SpeechTranscriber {
                            switch mode {
                            case .offlineTranscription: SpeechTranscriber(locale: locale, preset: .transcription)
                            case .progressiveLiveTranscription: SpeechTranscriber(locale: locale, preset: .progressiveTranscription)
                            }
                        }

                        func settings(preset: Mode = .offlineTranscription) -> Mode { preset }

                        func chosen(_ locale: Locale, live: Bool) -> SpeechTranscriber {
                            SpeechTranscriber(locale: locale, preset: live ? .progressiveTranscription : .transcription)
                        }
                    }
                    """##
                )
            ]
        )
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "beta-presets-wrong: the first beta's preset names (`.offlineTranscription`, `.progressiveLiveTranscription`, also as the branches of a `? :` in the `preset:` argument, as a public CLI example has them), against the shipped presets and an app's own enum whose cases share those names",
            files: [
                (
                    "Transcription.swift",
                    ##"""
                    import Speech

                    /// The twin of beta-presets, as code written against the first beta has it: its preset names.
                    struct Transcription {
                        func offline(_ locale: Locale) -> SpeechTranscriber {
                            SpeechTranscriber(locale: locale, preset: .↓offlineTranscription)
                        }

                        func live(_ locale: Locale) -> SpeechTranscriber {
                            let preset = SpeechTranscriber.Preset.↓progressiveLiveTranscription
                            return SpeechTranscriber(locale: locale, preset: preset)
                        }

                        func chosen(_ locale: Locale, live: Bool) -> SpeechTranscriber {
                            SpeechTranscriber(locale: locale, preset: live ? .↓progressiveLiveTranscription : .↓offlineTranscription)
                        }
                    }
                    """##
                )
            ]
        )
    ]
}

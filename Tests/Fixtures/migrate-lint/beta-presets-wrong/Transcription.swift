import Speech

/// The twin of beta-presets, as code written against the first beta has it: its preset names.
struct Transcription {
    func offline(_ locale: Locale) -> SpeechTranscriber {
        SpeechTranscriber(locale: locale, preset: .offlineTranscription) // lint: beta-preset
    }

    func live(_ locale: Locale) -> SpeechTranscriber {
        let preset = SpeechTranscriber.Preset.progressiveLiveTranscription // lint: beta-preset
        return SpeechTranscriber(locale: locale, preset: preset)
    }

    func chosen(_ locale: Locale, live: Bool) -> SpeechTranscriber {
        SpeechTranscriber(locale: locale, preset: live ? .progressiveLiveTranscription : .offlineTranscription) // lint: beta-preset, beta-preset
    }
}

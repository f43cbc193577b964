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

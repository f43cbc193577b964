import ComposableArchitecture
import Speech

/// A reducer over the recorder: its events come back as actions. A failure cancels the effect
/// that runs the recorder, and that effect's cancellation is where the analyzer is cancelled: the
/// effect runtime's work, which the lint does not follow.
@Reducer
struct DictationFeature {
    @ObservableState
    struct State { var isRecording = false; var text = "" }

    enum Action {
        case recordTapped
        case recorder(Recorder.Event)
    }

    enum CancelID { case recording }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .recordTapped:
                state.isRecording = true
                return .run { send in
                    let recorder = Recorder(onEvent: { event in Task { await send(.recorder(event)) } })
                    try await withTaskCancellationHandler {
                        try await recorder.start(SpeechTranscriber(locale: .current, preset: .transcription))
                    } onCancel: {
                        Task { await recorder.cancel() }
                    }
                }
                .cancellable(id: CancelID.recording)
            case .recorder(.transcript(let text)):
                state.text = text
                return .none
            case .recorder(.failed):
                state.isRecording = false
                return .cancel(id: CancelID.recording)
            }
        }
    }
}

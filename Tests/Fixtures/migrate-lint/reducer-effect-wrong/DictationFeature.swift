import ComposableArchitecture
import Speech

/// The twin of reducer-effect: a failure only clears the flag and returns no effect, so the
/// recorder's analyzer waits on for input that will never come.
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
                return .none
            }
        }
    }
}

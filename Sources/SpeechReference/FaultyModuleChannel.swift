// Compiled only into builds that run the mutation check (see PlantedFault.swift).
#if SPEECH_HARNESS_MUTATIONS
    import CoreMedia
    import SpeechCore

    /// A module channel that breaks one rule on the engines' side of the analyzer, so that the
    /// conformance suite can show it notices. It forwards everything else to the real channel.
    final class FaultyModuleChannel: ModuleChannel, @unchecked Sendable {
        enum Fault {
            /// `finalize` returns at once; the finalisation is carried out at the next call.
            case finalizeReturnsEarly
            /// `finalize` never reaches the engine.
            case finalizeSkipsEngines
            /// A normal end of the session leaves the results stream open.
            case streamsStayOpenAfterFinish

            init?(_ planted: PlantedFault) {
                switch planted {
                case .finalizeReturnsEarly: self = .finalizeReturnsEarly
                case .finalizeSkipsEngines: self = .finalizeSkipsEngines
                case .streamsStayOpenAfterFinish: self = .streamsStayOpenAfterFinish
                default: return nil
                }
            }
        }

        private let inner: any ModuleChannel
        private let fault: Fault
        private let deferred = Locked<(time: MediaTime, consumedEnd: MediaTime)?>(nil)

        init(_ inner: any ModuleChannel, fault: Fault) {
            self.inner = inner
            self.fault = fault
        }

        var moduleName: String { inner.moduleName }
        var compatibleFormats: [AudioFormat] { inner.compatibleFormats }
        var isReady: Bool { inner.isReady }
        var assetNeeds: (engine: (any RecognitionEngine)?, locale: String)? { inner.assetNeeds }
        var resourceKey: String? { inner.resourceKey }
        var finalizedThrough: MediaTime { inner.finalizedThrough }

        func claim(by analyzer: ObjectIdentifier) -> Bool { inner.claim(by: analyzer) }

        func open(context: AnalysisContext, onEngineFailure: @escaping @Sendable (any Error) -> Void) async throws {
            try await inner.open(context: context, onEngineFailure: onEngineFailure)
        }

        func process(_ buffer: PCMBuffer, at start: MediaTime, end: MediaTime) async throws {
            try await catchUp()
            try await inner.process(buffer, at: start, end: end)
        }

        func finalize(through time: MediaTime, consumedEnd: MediaTime) async throws {
            switch fault {
            case .finalizeReturnsEarly:
                try await catchUp()
                deferred.withLock { $0 = (time, consumedEnd) }
            case .finalizeSkipsEngines:
                break
            case .streamsStayOpenAfterFinish:
                try await inner.finalize(through: time, consumedEnd: consumedEnd)
            }
        }

        // cancel and close cannot throw: a put-off finalisation that fails there loses its results,
        // which is what the fault is about.
        func cancel(before time: MediaTime, consumedEnd: MediaTime) async {
            try? await catchUp()
            await inner.cancel(before: time, consumedEnd: consumedEnd)
        }

        func endResults(throwing error: (any Error)?) {
            if fault == .streamsStayOpenAfterFinish && error == nil { return }
            inner.endResults(throwing: error)
        }

        func close() async {
            try? await catchUp()
            await inner.close()
        }

        /// Carries out a finalisation put off by `finalizeReturnsEarly`.
        private func catchUp() async throws {
            guard let (time, consumedEnd) = deferred.withLock({ $0.take() }) else { return }
            try await inner.finalize(through: time, consumedEnd: consumedEnd)
        }
    }
#endif
